"""What each ``marginalia`` subcommand does, on a Library. Kept apart from argument parsing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.cli_support import UserError, print_json, write_out
from desktop_app.core.changelog.undo_data import AttachmentAdded, HighlightId, Purged
from desktop_app.core.library import Library
from desktop_app.core.store.column_types import STATUSES

if TYPE_CHECKING:
    from desktop_app.core.insights.topics import TopicSet


def run(folder: Path | str, args: argparse.Namespace) -> int:
    """Run one command on the library in ``folder``, or at a server's URL (a str)."""
    if args.command == "restore":  # works on a database that no longer opens
        if isinstance(folder, str):
            from desktop_app.core.conninfo import redact

            raise UserError(
                f"a shared library's backups are its server's (pg_dump, pg_restore); "
                f"`marginalia restore` works on a library folder ({redact(folder)})"
            )
        return cmd_restore(folder, args)
    return translating_damage(folder, lambda: _run_on_library(folder, args))


def _run_on_library(folder: Path | str, args: argparse.Namespace) -> int:
    lib = Library.open(
        folder, read_only=True if getattr(args, "read_only", False) else None, ensure_index=needs_index(args)
    )
    try:
        return run_open(lib, args)
    finally:
        lib.close()


def run_open(lib: Library, args: argparse.Namespace) -> int:
    """Run one command on a library already open (with its index ensured unless the command is
    in :data:`NO_INDEX`): what a ``marginalia`` process does after opening, and what
    ``marginalia serve`` (:mod:`desktop_app.serving`) does for each request."""
    from desktop_app.core.errors import IndexDamaged

    handler = HANDLERS[args.command]
    if args.command in SEARCHING:
        _repair_silently_wrong_index(lib)
    try:
        return handler(lib, args) or 0
    except IndexDamaged as exc:
        print(f"marginalia: {exc}", file=sys.stderr)
        lib.ensure_index()
        return handler(lib, args) or 0


def translating_damage(folder: Path | str, call: Callable[[], int]) -> int:
    """Run *call*; a damaged database comes out as the library's one-line LibraryDamaged (a
    server library, ``folder`` its URL, has no SQLite database to be damaged)."""
    from sqlite3 import DatabaseError as SqliteDatabaseError

    from sqlalchemy.exc import DatabaseError

    from desktop_app.core.store.backups import damaged_error, is_damage

    try:
        return call()
    except (DatabaseError, SqliteDatabaseError) as exc:
        if not is_damage(exc) or isinstance(folder, str):
            raise
        raise damaged_error(folder, str(getattr(exc, "orig", exc))) from exc


SEARCHING = ("search", "list", "export")
NO_INDEX = (
    "show",
    "attach",
    "attachments",
    "stats",
    "share",
)  # reads the database only: the index is neither checked nor loaded (Whoosh)
# the window's children that fit the semantic space or the learned order's features from the
# database's texts: the index is the window's to check and build, never theirs
NO_INDEX_TRIAGE = ("space", "features")


def needs_index(args: argparse.Namespace) -> bool:
    """Whether the command opens the library with its index checked (and built when missing)."""
    if args.command == "triage":
        return getattr(args, "triage_command", None) not in NO_INDEX_TRIAGE
    return args.command not in NO_INDEX


def _repair_silently_wrong_index(lib: Library) -> None:
    """A damaged segment can keep the index's count and lose papers: searches would be silently
    wrong. Compare the sets (about as costly as one search's id map) and rebuild on a difference."""
    from desktop_app.core.integrity import index_disagreement

    differs = index_disagreement(lib.store, lib.index)
    if differs:
        print(f"marginalia: {differs}; rebuilding it", file=sys.stderr)
        lib.reindex()


def _table(lib: Library, ids: list[int], scores: dict[int, float] | None = None) -> None:
    rows = lib.papers.rows(ids)
    for pid in ids:
        r = rows[pid]
        stars = "★" * r.rating
        tags = " ".join(f"#{t}" for t in r.tags)
        score = f" [{scores[pid]:.2f}]" if scores and pid in scores else ""
        print(f"{pid:>6}  {r.status:<7} {stars:<5} {r.year or '':<4}  {r.title}{score}  {tags}".rstrip())


def _json_papers(lib: Library, ids: list[int], scores: dict[int, float] | None = None) -> list[dict[str, object]]:
    out = []
    for pid in ids:
        d = lib.papers.get(pid).as_json()
        if scores is not None:
            d["score"] = scores.get(pid, 0.0)
        out.append(d)
    return out


def cmd_import(lib: Library, args: argparse.Namespace) -> int:
    from desktop_app.core.sameness import REASON_LABELS  # the formats: not on the search path

    for f in args.files:
        if not Path(f).is_file():
            raise UserError(f"no such file: {f}")
    report = lib.imports.from_files(
        args.files,
        duplicates="skip" if args.skip_duplicates else "merge",
        tag_categories=args.arxiv_categories_as_tags,
        keywords_as_tags=args.keywords_as_tags,
        accept_links=args.accept_links,
    )
    if args.json:
        print_json(report.as_dict())
    else:
        for fr in report.files:
            print(f"{fr.path}: {fr.format}: {fr.added} added, {fr.duplicates} already there, {fr.failed} failed")
            if args.show_matches:
                for m in fr.matches:
                    where = f"line {m.line}: " if m.line else ""
                    print(
                        f"  {where}{m.title!r} is paper {m.paper_id} {m.paper_title!r} "
                        f"({REASON_LABELS.get(m.reason, m.reason)})"
                    )
            for w in fr.warnings:
                print(f"  warning: {w}")
            for e in fr.errors:
                print(f"  failed: {e}")
        print(f"total: {report.summary()}")
    return 0 if report.added or report.duplicates or not report.failed else 1


def cmd_list(lib: Library, args: argparse.Namespace) -> int:
    res = lib.query(
        args.query,
        tags=args.tag,
        not_tags=args.not_tag,
        status=args.status,
        list_name=args.list_name,
        sort=args.sort,
        descending=args.descending,
        limit=args.limit,
    )
    if args.json:
        print_json({"total": res.total, "papers": _json_papers(lib, res.ids)})
    else:
        _table(lib, res.ids)
        sys.stdout.flush()  # the count follows the table, and is not said when the reader went away
        print(f"{len(res.ids)} of {res.total} papers", file=sys.stderr)
    return 0


def cmd_search(lib: Library, args: argparse.Namespace) -> int:
    res = lib.query(args.query, sort="relevance", limit=args.limit)
    suggestion = lib.did_you_mean(args.query, res.total)
    if args.json:
        print_json({"total": res.total, "papers": _json_papers(lib, res.ids, res.scores), "did_you_mean": suggestion})
    else:
        _table(lib, res.ids, res.scores)
        sys.stdout.flush()
        print(f"{len(res.ids)} of {res.total} matches", file=sys.stderr)
        if suggestion:
            print(f"Did you mean: {suggestion}?", file=sys.stderr)
    return 0


def cmd_retitle(lib: Library, args: argparse.Namespace) -> int:
    """List (and with --apply write) the derived titles the current algorithm derives anew."""
    changes = lib.rederive_titles(dry_run=not args.apply)
    for pid, old, new in changes:
        print(f"{pid}\t{old}\n\t-> {new}")
    sys.stdout.flush()
    verb = "changed" if args.apply else "would change (--apply writes them)"
    print(f"{len(changes)} derived titles {verb}", file=sys.stderr)
    return 0


def cmd_show(lib: Library, args: argparse.Namespace) -> int:
    p = lib.papers.get(args.id)
    if args.json:
        print_json(p.as_json())
        return 0
    print(p.title + ("  (derived title)" if p.title_source == "derived" else ""))
    meta = [x for x in (", ".join(p.authors[:6]), p.venue, str(p.year or "")) if x]
    print(" · ".join(meta))
    print(f"status: {p.status}   rating: {p.rating}/5   tags: {', '.join(p.tags) or '-'}")
    if p.doi:
        print(f"doi: {p.doi}")
    if p.arxiv_id:
        print(f"arXiv: {p.arxiv_id}")
    if lib.server is not None:  # a shared library: who changed it last ("tagged by lin, 5 min ago")
        from desktop_app.core.changelog.changes import describe

        last = lib.server.feed.last_change(p.id)
        if last is not None:
            print(f"last change: {describe(last)}")
    print()
    print(p.abstract_text)
    if p.highlights:
        print("\nhighlights:")
        for h in p.highlights:
            flag = " (orphaned)" if h.orphaned else ""
            print(f"  [{h.color}] “{h.quote}”{flag}" + (f" — {h.comment}" if h.comment else ""))
    if p.note:
        print("\nnote:\n" + p.note)
    return 0


def cmd_tag(lib: Library, args: argparse.Namespace) -> int:
    if not args.add and not args.remove:
        raise UserError("say --add TAG or --remove TAG")
    if args.add:
        lib.tags.add(args.ids, args.add)
    if args.remove:
        lib.tags.remove(args.ids, args.remove)
    return 0


def _ids_and_value(values: list[str], what: str) -> tuple[list[int], str]:
    if len(values) < 2:
        raise UserError(f"give one or more paper ids, then the {what}")
    try:
        ids = [int(v) for v in values[:-1]]
    except ValueError as exc:
        raise UserError(f"paper ids are numbers: {exc}") from exc
    return ids, values[-1]


def cmd_status(lib: Library, args: argparse.Namespace) -> int:
    ids, status = _ids_and_value(args.args, "status")
    if status not in STATUSES:
        raise UserError(f"status is one of {', '.join(STATUSES)}, not '{status}'")
    lib.papers.set_status(ids, status)
    return 0


def cmd_rate(lib: Library, args: argparse.Namespace) -> int:
    ids, value = _ids_and_value(args.args, "rating")
    if not value.isdigit() or not 0 <= int(value) <= 5:
        raise UserError(f"a rating is a whole number from 0 to 5, not '{value}'")
    lib.papers.set_rating(ids, int(value))
    return 0


def cmd_title(lib: Library, args: argparse.Namespace) -> int:
    lib.papers.set_title(args.id, args.text)
    return 0


def cmd_note(lib: Library, args: argparse.Namespace) -> int:
    if args.set is not None:
        lib.notes.set(args.id, args.set)
    elif args.append is not None:
        lib.notes.append(args.id, args.append)  # read and written in one transaction
    elif args.file is not None:
        lib.notes.set(args.id, Path(args.file).read_text("utf-8"))
    else:
        print(lib.papers.get(args.id).note)
    return 0


def cmd_highlight(lib: Library, args: argparse.Namespace) -> int:
    change = lib.highlights.add_quote(args.id, args.quote, color=args.color, comment=args.comment)
    print(change.detail_as(HighlightId).id)
    return 0


def cmd_abstract(lib: Library, args: argparse.Namespace) -> int:
    lib.papers.set_abstract(args.id, Path(args.file).read_text("utf-8"))
    p = lib.papers.get(args.id)
    orphans = sum(h.orphaned for h in p.highlights)
    print(f"{len(p.highlights) - orphans} highlights placed, {orphans} orphaned")
    return 0


def cmd_export(lib: Library, args: argparse.Namespace) -> int:
    from desktop_app.exporting import export_text, export_to_file

    if args.output == "-":
        if args.format == "pdf":
            raise UserError("a PDF cannot be written to standard output; give a file with -o")
        text, n = export_text(
            lib,
            args.format,
            query=args.query,
            list_name=args.list_name,
            title=args.title,
            notes_in_bibtex=args.notes_in_bibtex,
            style=args.style,
        )
        write_out(text)
        sys.stdout.flush()  # written before it is said to be
        print(f"{n} papers written to standard output", file=sys.stderr)
        return 0
    n = export_to_file(
        lib,
        args.format,
        Path(args.output),
        query=args.query,
        list_name=args.list_name,
        title=args.title,
        notes_in_bibtex=args.notes_in_bibtex,
        style=args.style,
    )
    print(f"{n} papers written to {args.output}", file=sys.stderr)
    return 0


def cmd_related(lib: Library, args: argparse.Namespace) -> int:
    ranked = lib.insights.related(args.id, args.limit)
    ids, scores = [pid for pid, _ in ranked], dict(ranked)
    if args.json:
        print_json({"paper": args.id, "papers": _json_papers(lib, ids, scores)})
    else:
        _table(lib, ids, scores)
    return 0


def cmd_topics(lib: Library, args: argparse.Namespace) -> int:
    """``topics [QUERY]``: the topics of the papers QUERY finds (all papers without one);
    ``topics decide TOPIC keep|maybe|skip``; ``topics tag TOPIC [NAME]``."""
    words = list(args.words)
    action = words.pop(0) if words and words[0] in ("decide", "tag") else None
    query = args.query if args.query is not None else ("" if action else " ".join(words))
    if args.k is not None and args.k < 1:
        raise UserError(f"--k is the number of topics, at least 1, not {args.k}")
    ids = lib.query(query, limit=None).ids if query.strip() else None
    found = lib.topics.of(ids, args.k)
    if action is None:
        return _print_topics(found, args.json)
    if not words:
        raise UserError(f"say which topic: topics {action} TOPIC (a number from `marginalia topics`, or a name)")
    topic = found.find(words[0])
    if action == "tag":
        change = lib.topics.save_as_tag(topic, " ".join(words[1:]) or None)
        print(f"tagged {len(change.paper_ids)} papers {change.tag_names[0]}")
        return 0
    if len(words) != 2:
        raise UserError("topics decide TOPIC keep|maybe|skip")
    change = lib.topics.decide(topic, words[1])
    left = topic.size - len(change.paper_ids)
    print(
        f"{words[1]}: {len(change.paper_ids)} papers of topic {topic.number} ({topic.name})"
        + (f"; {left} decided before, left as they were" if left else "")
    )
    return 0


def _print_topics(found: TopicSet, as_json: bool) -> int:
    if as_json:
        print_json(found.as_json())
        return 0
    for t in found.topics:
        d = t.decisions
        counts = " · ".join(f"{name} {d.get(name, 0)}" for name in ("keep", "maybe", "skip", "undecided"))
        print(f"{t.number:>3}. {t.name}  ({t.size} papers: {counts})")
        if t.words:
            print(f"     {', '.join(t.words)}")
    sys.stdout.flush()
    how = "chosen; --k N asks for another count" if found.chosen else "asked for"
    print(f"{len(found.topics)} topics of {found.papers} papers ({how})", file=sys.stderr)
    if found.message:
        print(found.message, file=sys.stderr)
    return 0


def cmd_triage(lib: Library, args: argparse.Namespace) -> int:
    if args.triage_command == "features":  # the window builds them in this child process
        from desktop_app.core.insights.text_features import features

        features(lib.store, lib.folder)
        return 0
    if args.triage_command == "space":  # the window fits the semantic space in this child process
        from desktop_app.core.insights.semantic import fit_and_save

        return 0 if fit_and_save(lib.store, lib.folder) is not None else 1
    if args.triage_command == "decide":
        lib.triage.decide(args.ids, None if args.decision == "none" else args.decision)
        return 0
    if args.limit is not None and args.limit < 0:
        raise UserError("--limit is a number of papers, 0 or more")
    q = lib.triage.queue(args.query, learned=not args.list_order, limit=args.limit)
    s = q.summary
    if args.json:
        rows = lib.papers.rows([e.id for e in q.entries])
        print_json(
            {
                "query": args.query,
                "summary": s.as_json(),
                "papers": [{"id": e.id, "title": rows[e.id].title, "score": e.score, "why": e.why} for e in q.entries],
            }
        )
        return 0
    rows = lib.papers.rows([e.id for e in q.entries])
    for e in q.entries:
        score = f"{e.score:.3f}" if e.score is not None else "  -  "
        why = f"  ({', '.join(e.why)})" if e.why else ""
        print(f"{e.id:>6}  {score}  {rows[e.id].title}{why}")
    print(s.line() + (f" · {s.message}" if s.message else ""), file=sys.stderr)
    return 0


def cmd_stats(lib: Library, args: argparse.Namespace) -> int:
    st = lib.insights.statistics()
    if args.json:
        print_json(st.as_dict())
        return 0
    status = ", ".join(f"{n:,} {s}" for s, n in st.by_status.items())
    print(f"{st.papers:,} papers: {status}")
    if any(st.by_decision.get(k) for k in ("keep", "maybe", "skip")):
        print(
            "decisions: " + ", ".join(f"{n:,} {k if k != 'none' else 'undecided'}" for k, n in st.by_decision.items())
        )
    print(
        f"{st.rated:,} rated, {st.tagged:,} tagged ({st.tags:,} tags), {st.with_notes:,} with notes, "
        f"{st.highlights:,} highlights"
    )
    recent = [d for d in st.progress if d.skimmed or d.read][-7:]
    if recent:
        print("\nreading progress (last active days)")
        for d in recent:
            print(f"  {d.day}  {d.skimmed:>5} skimmed  {d.read:>5} read  {d.read_total:>7,} read in all")
    print("\nratings")
    for r, n in st.ratings.items():
        print(f"  {'unrated' if r == 0 else '*' * r:<8} {n:>7,}")
    for title, rows in (("tags (top 20)", st.by_tag), ("venues (top 20)", st.by_venue)):
        if rows:
            print(f"\n{title}")
            for name, n in rows:
                print(f"  {n:>7,}  {name}")
    if st.by_year:
        print("\nyears")
        for y, n in st.by_year:
            print(f"  {y}  {n:>7,}")
    return 0


def cmd_reading_list(lib: Library, args: argparse.Namespace) -> int:
    c = args.rl_command
    if c == "create":
        lib.lists.create(args.name, args.description)
    elif c == "add":
        lib.lists.add(args.name, args.ids)
    elif c == "move":
        lib.lists.move(args.name, args.id, args.position - 1)
    elif c == "remove":
        lib.lists.remove(args.name, args.ids)
    elif c == "note":
        lib.lists.set_item_note(args.name, args.id, args.text)
    elif c == "rename":
        lib.lists.rename(args.name, args.new_name)
    elif c == "describe":
        lib.lists.describe(args.name, args.description)
    elif c == "delete":
        lib.lists.delete(args.name)
    elif c == "ls":
        for info in lib.lists.all():
            print(f"{info.name} ({info.count})" + (f" — {info.description}" if info.description else ""))
    elif c == "show":
        items = lib.lists.items(args.name)
        info = next(i for i in lib.lists.all() if i.name.lower() == args.name.lower())
        if args.json:
            rows = []
            for pid, pos, note in items:
                d = lib.papers.get(pid).as_json()
                d["position"] = pos + 1
                d["item_note"] = note
                rows.append(d)
            print_json({"name": info.name, "description": info.description, "papers": rows})
        else:
            print(info.name + (f" — {info.description}" if info.description else ""))
            by_id = lib.papers.rows([i[0] for i in items])
            for pid, pos, note in items:
                print(f"{pos + 1:>3}. [{pid}] {by_id[pid].title}" + (f"  — {note}" if note else ""))
    return 0


def cmd_reindex(lib: Library, args: argparse.Namespace) -> int:
    lib.reindex(progress=lambda n, t: print(f"\rindexed {n}/{t}", end="", file=sys.stderr))
    print(f"\nindex rebuilt: {lib.papers.count()} papers", file=sys.stderr)
    return 0


def cmd_check(lib: Library, args: argparse.Namespace) -> int:
    from desktop_app.core.store.backups import describe_age

    removed = lib.clean_leftovers()  # what killed commands left (core/leftovers.py)
    problems = lib.integrity_check()
    if any(p.startswith("database integrity:") for p in problems):
        raise lib.damaged(problems[0].partition(": ")[2])
    for item in removed:
        print(f"removed {item}")
    for p in problems:
        print(p)
    if problems and getattr(args, "repair", False):
        # the index is derived: rebuilding it repairs every index problem; the database's own
        # problems need a backup (they are printed again below if they remain)
        print("rebuilding the search index from the database …")
        lib.reindex()
        problems = lib.integrity_check()
        for p in problems:
            print(f"still: {p}")
    if not problems:
        print(f"ok: {lib.papers.count()} papers, database and index agree")
    print(describe_age(lib.backups.newest_age()))
    return 1 if problems else 0


def cmd_backup(lib: Library, args: argparse.Namespace) -> int:
    from desktop_app.core.errors import LibraryReadOnly
    from desktop_app.core.store.failures import READ_ONLY

    if lib.read_only:
        raise LibraryReadOnly(f"{READ_ONLY}, so no backup can be written into {lib.folder / 'backups'}")
    print(lib.backups.make("manual"))
    return 0


def cmd_restore(folder: Path, args: argparse.Namespace) -> int:
    from desktop_app.core.store import backups

    if args.backup is None:
        found = backups.list_backups(folder / backups.BACKUPS_DIR)
        if not found:
            print(f"no backups in {folder / backups.BACKUPS_DIR}", file=sys.stderr)
            return 1
        for n, b in enumerate(found, 1):
            print(f"{n:>3}  {b.describe()}  {b.path.name}")
        print("restore one with `marginalia restore N` (1 is the newest)", file=sys.stderr)
        return 0
    chosen = backups.choose_backup(folder, args.backup)
    if backups.library_in_use(folder):
        raise UserError(f"the library {folder} is open in a Marginalia window; close it first")
    kept = backups.restore(folder, chosen)
    info = next((b for b in backups.list_backups(chosen.parent) if b.path == chosen), None)
    what = info.describe() if info else chosen.name
    print(f"restored the backup of {what}" + (f"; the old database is kept as {kept}" if kept else ""))
    return 0


def cmd_imports(lib: Library, args: argparse.Namespace) -> int:
    for b in lib.imports.batches():
        state = " (undone)" if b["undone"] else ""
        print(
            f"{b['id']:>4}  {str(b['started_at'])[:19]}  {b['added']} added, {b['duplicates']} duplicates, "
            f"{b['failed']} failed  {b['source']}{state}"
        )
    return 0


def cmd_undo_import(lib: Library, args: argparse.Namespace) -> int:
    change = lib.imports.undo(args.batch)
    n = len(change.paper_ids)
    print(f"moved {n} paper{'s' if n != 1 else ''} to the trash (`marginalia trash restore ID...` brings them back)")
    return 0


def cmd_delete(lib: Library, args: argparse.Namespace) -> int:
    """``marginalia delete ID...``: to the trash, all or none (an unknown id changes nothing)."""
    change = lib.papers.delete(args.ids)
    n = len(change.paper_ids)
    print(
        f"moved {n} paper{'s' if n != 1 else ''} to the trash; "
        f"`marginalia trash restore {' '.join(map(str, change.paper_ids))}` brings "
        f"{'them' if n != 1 else 'it'} back"
    )
    return 0


def cmd_trash(lib: Library, args: argparse.Namespace) -> int:
    """``marginalia trash list|restore|empty``."""
    if args.trash_command == "list":
        items = lib.trash.items()
        if args.json:
            print_json({"total": len(items), "papers": [i.as_json() for i in items]})
            return 0
        for i in items:
            print(f"{i.id:>6}  {i.deleted_at}  {i.year or '':<4}  {i.title}".rstrip())
        sys.stdout.flush()
        print(f"{len(items)} papers in the trash", file=sys.stderr)
        return 0
    if args.trash_command == "restore":
        change = lib.trash.restore(args.ids)
        n = len(change.paper_ids)
        print(f"restored {n} paper{'s' if n != 1 else ''} from the trash")
        return 0
    count = lib.trash.count()
    if not count:
        print("the trash is empty")
        return 0
    if not args.yes:
        what = f"{count} paper{'s' if count != 1 else ''}"
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            print(
                f"marginalia: emptying the trash deletes {what} for good and cannot be undone; "
                "run `marginalia trash empty --yes` to do it without being asked",
                file=sys.stderr,
            )
            return 2
        try:
            answer = input(f"Delete the {what} in the trash for good? This cannot be undone. [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("marginalia: nothing deleted", file=sys.stderr)
            return 1
    change = lib.trash.empty()
    n, files = len(change.paper_ids), change.detail_as(Purged).files
    print(
        f"deleted {n} paper{'s' if n != 1 else ''} for good"
        + (f" and {files} attached file{'s' if files != 1 else ''}" if files else "")
    )
    return 0


def cmd_attach(lib: Library, args: argparse.Namespace) -> int:
    change = lib.attachments.add(args.id, args.file, mode="link" if args.link else "copy")
    v = lib.attachments.get(change.detail_as(AttachmentAdded).attachment_id)
    print(f"attached {v.name} to paper {v.paper_id} ({'linked' if v.kind == 'link' else 'copied to'} {v.path})")
    return 0


def cmd_attachments(lib: Library, args: argparse.Namespace) -> int:
    lib.papers.get(args.id)  # a LibraryError for a paper that is not there
    views = lib.attachments.for_paper(args.id)
    if args.json:
        print_json([v.as_json() for v in views])
        return 0
    for v in views:
        missing = "" if v.exists else "  (missing)"
        print(f"{v.id:>5}  {v.kind:<4}  {v.size:>10}  {v.name}  {v.location or v.path}{missing}")
    return 0


def cmd_share(lib: Library, args: argparse.Namespace) -> int:
    from desktop_app.sharing import share

    report, where = share(lib, args.to, merge=args.merge)
    print(f"copied {report.added} papers to {where}")
    return 0


HANDLERS = {
    "import": cmd_import,
    "list": cmd_list,
    "search": cmd_search,
    "show": cmd_show,
    "tag": cmd_tag,
    "retitle": cmd_retitle,
    "status": cmd_status,
    "rate": cmd_rate,
    "title": cmd_title,
    "note": cmd_note,
    "highlight": cmd_highlight,
    "abstract": cmd_abstract,
    "export": cmd_export,
    "reading-list": cmd_reading_list,
    "reindex": cmd_reindex,
    "check": cmd_check,
    "backup": cmd_backup,
    "imports": cmd_imports,
    "undo-import": cmd_undo_import,
    "related": cmd_related,
    "stats": cmd_stats,
    "triage": cmd_triage,
    "share": cmd_share,
    "attach": cmd_attach,
    "attachments": cmd_attachments,
    "trash": cmd_trash,
    "delete": cmd_delete,
}
HANDLERS["topics"] = cmd_topics
