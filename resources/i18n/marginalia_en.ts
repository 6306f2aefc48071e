<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>AttachController</name>
    <message numerus="yes">
        <source>%n files</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BulkPanel</name>
    <message numerus="yes">
        <source>%n paper(s) selected</source>
        <translation>
            <numerusform>%n paper selected</numerusform>
            <numerusform>%n papers selected</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message numerus="yes">
        <source>%n possible duplicate(s) — the import&apos;s own reasons in bold</source>
        <translation>
            <numerusform>%n possible duplicate — the import&apos;s own reasons in bold</numerusform>
            <numerusform>%n possible duplicates — the import&apos;s own reasons in bold</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EditController</name>
    <message numerus="yes">
        <source>Add tag {0} to %n paper(s)</source>
        <translation>
            <numerusform>Add tag {0} to %n paper</numerusform>
            <numerusform>Add tag {0} to %n papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n papers)</source>
        <translation>
            <numerusform> (%n paper)</numerusform>
            <numerusform> (%n papers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Add %n paper(s) to {0}</source>
        <translation>
            <numerusform>Add %n paper to {0}</numerusform>
            <numerusform>Add %n papers to {0}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Added %n paper(s) to “{0}”</source>
        <translation>
            <numerusform>Added %n paper to “{0}”</numerusform>
            <numerusform>Added %n papers to “{0}”</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reading list “{0}” holds the %n paper(s) the search found</source>
        <translation>
            <numerusform>Reading list “{0}” holds the %n paper the search found</numerusform>
            <numerusform>Reading list “{0}” holds the %n papers the search found</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n paper(s) to the trash</source>
        <translation>
            <numerusform>Move %n paper to the trash</numerusform>
            <numerusform>Move %n papers to the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Moved %n paper(s) to the trash</source>
        <translation>
            <numerusform>Moved %n paper to the trash</numerusform>
            <numerusform>Moved %n papers to the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The library&apos;s server cannot be reached: “{0}” waits and is sent when it is back (%n edit(s) waiting)</source>
        <translation>
            <numerusform>The library&apos;s server cannot be reached: “{0}” waits and is sent when it is back (%n edit waiting)</numerusform>
            <numerusform>The library&apos;s server cannot be reached: “{0}” waits and is sent when it is back (%n edits waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edit(s) wait for the library&apos;s server and are kept only in this window: closing it now loses them.</source>
        <translation>
            <numerusform>%n edit waits for the library&apos;s server and is kept only in this window: closing it now loses it.</numerusform>
            <numerusform>%n edits wait for the library&apos;s server and are kept only in this window: closing it now loses them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edit(s) made while the server was away were saved</source>
        <translation>
            <numerusform>%n edit made while the server was away was saved</numerusform>
            <numerusform>%n edits made while the server was away were saved</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n paper(s) from the trash</source>
        <translation>
            <numerusform>Restore %n paper from the trash</numerusform>
            <numerusform>Restore %n papers from the trash</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FileController</name>
    <message numerus="yes">
        <source>Exported %n paper(s) to {0}</source>
        <translation>
            <numerusform>Exported %n paper to {0}</numerusform>
            <numerusform>Exported %n papers to {0}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Indexing {0} of %n paper(s)…</source>
        <translation>
            <numerusform>Indexing {0} of %n paper…</numerusform>
            <numerusform>Indexing {0} of %n papers…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>All is well: %n paper(s); database and index agree.
</source>
        <translation>
            <numerusform>All is well: %n paper; database and index agree.
</numerusform>
            <numerusform>All is well: %n papers; database and index agree.
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The backup links %n file(s) outside this library&apos;s folder. They were not linked: a backup from elsewhere can name any file on this computer. Link them now? Only if you trust the backup.</source>
        <translation>
            <numerusform>The backup links %n file outside this library&apos;s folder. It was not linked: a backup from elsewhere can name any file on this computer. Link it now? Only if you trust the backup.</numerusform>
            <numerusform>The backup links %n files outside this library&apos;s folder. They were not linked: a backup from elsewhere can name any file on this computer. Link them now? Only if you trust the backup.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportPreview</name>
    <message numerus="yes">
        <source>%n keyword(s)</source>
        <translation>
            <numerusform>%n keyword</numerusform>
            <numerusform>%n keywords</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n record(s)</source>
        <translation>
            <numerusform>%n record</numerusform>
            <numerusform>%n records</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>Recovered unsaved note text for %n paper(s) after a crash</source>
        <translation>
            <numerusform>Recovered unsaved note text for %n paper after a crash</numerusform>
            <numerusform>Recovered unsaved note text for %n papers after a crash</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PaperTableModel</name>
    <message numerus="yes">
        <source>%n highlight(s), has a note</source>
        <translation>
            <numerusform>%n highlight, has a note</numerusform>
            <numerusform>%n highlights, has a note</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n highlight(s)</source>
        <translation>
            <numerusform>%n highlight</numerusform>
            <numerusform>%n highlights</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Plurals</name>
    <message numerus="yes">
        <source>%n paper(s)</source>
        <translation>
            <numerusform>%n paper</numerusform>
            <numerusform>%n papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n highlight(s)</source>
        <translation>
            <numerusform>%n highlight</numerusform>
            <numerusform>%n highlights</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new paper(s)</source>
        <translation>
            <numerusform>%n new paper</numerusform>
            <numerusform>%n new papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n could not be read</source>
        <translation>
            <numerusform>%n could not be read</numerusform>
            <numerusform>%n could not be read</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n character</numerusform>
            <numerusform>%n characters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n reference(s) ({0})</source>
        <translation>
            <numerusform>Copied %n reference ({0})</numerusform>
            <numerusform>Copied %n references ({0})</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Formatting %n reference(s)…</source>
        <translation>
            <numerusform>Formatting %n reference…</numerusform>
            <numerusform>Formatting %n references…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n BibTeX entries</source>
        <translation>
            <numerusform>Copied %n BibTeX entry</numerusform>
            <numerusform>Copied %n BibTeX entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n title(s) re-derived (Edit → Undo restores them)</source>
        <translation>
            <numerusform>%n title re-derived (Edit → Undo restores them)</numerusform>
            <numerusform>%n titles re-derived (Edit → Undo restores them)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The newest backup is %n day(s) old.</source>
        <translation>
            <numerusform>The newest backup is %n day old.</numerusform>
            <numerusform>The newest backup is %n days old.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The newest backup is %n hour(s) old.</source>
        <translation>
            <numerusform>The newest backup is %n hour old.</numerusform>
            <numerusform>The newest backup is %n hours old.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The newest backup is %n minute(s) old.</source>
        <translation>
            <numerusform>The newest backup is %n minute old.</numerusform>
            <numerusform>The newest backup is %n minutes old.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n paper(s) to the trash</source>
        <translation>
            <numerusform>Move %n paper to the trash</numerusform>
            <numerusform>Move %n papers to the trash</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RatingControl</name>
    <message numerus="yes">
        <source>%n star(s)</source>
        <translation>
            <numerusform>%n star</numerusform>
            <numerusform>%n stars</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RetitleDialog</name>
    <message numerus="yes">
        <source>%n title(s) derived from their abstracts would read differently now. Titles you edited or that came with the paper are never changed.</source>
        <translation>
            <numerusform>%n title derived from their abstracts would read differently now. Titles you edited or that came with the paper are never changed.</numerusform>
            <numerusform>%n titles derived from their abstracts would read differently now. Titles you edited or that came with the paper are never changed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Re-derive %n title(s)</source>
        <translation>
            <numerusform>Re-derive %n title</numerusform>
            <numerusform>Re-derive %n titles</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrashController</name>
    <message numerus="yes">
        <source>Restored %n paper(s) from the trash</source>
        <translation>
            <numerusform>Restored %n paper from the trash</numerusform>
            <numerusform>Restored %n papers from the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n paper(s) for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</source>
        <translation>
            <numerusform>Delete %n paper for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</numerusform>
            <numerusform>Delete %n papers for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete all %n paper(s) in the trash for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</source>
        <translation>
            <numerusform>Delete the %n paper in the trash for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</numerusform>
            <numerusform>Delete all %n papers in the trash for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n paper(s) for good</source>
        <translation>
            <numerusform>Deleted %n paper for good</numerusform>
            <numerusform>Deleted %n papers for good</numerusform>
        </translation>
    </message>
</context>
</TS>
