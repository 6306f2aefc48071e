"""The shared-mime-info definitions we ship (resources/linux/<app id>.mime.xml) compile with
`update-mime-database` and make Qt's QMimeDatabase (what the desktop's "Open with" sees through
the same database) name RIS, MEDLINE and BibTeX files, by extension and by content; and the
desktop entry claims exactly those types.

Fast (no bundle build); needs shared-mime-info's update-mime-database.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.system_tools import require

ROOT = Path(__file__).resolve().parents[1]
APP_ID = re.search(r'APP_ID\s*=\s*"([^"]+)"', (ROOT / "desktop_app/appinfo.py").read_text())[1]
LINUX = ROOT / "resources" / "linux"
MIME_XML = LINUX / f"{APP_ID}.mime.xml"

RIS = "application/x-research-info-systems"
NBIB = "application/nbib"
BIBTEX = "text/x-bibtex"

RIS_TEXT = "TY  - JOUR\nTI  - A paper\nAU  - Doe, Jane\nPY  - 2024\nER  - \n"
NBIB_TEXT = "\nPMID- 12345678\nOWN - NLM\nTI  - A paper.\nAU  - Doe J\n"
BIB_TEXT = "@article{doe2024,\n  title = {A paper},\n  author = {Doe, Jane},\n}\n"

# a child interpreter: XDG_DATA_DIRS must be set before Qt reads the database
PROBE = """
import json, sys
from PySide6.QtCore import QMimeDatabase
db = QMimeDatabase()
out = {}
for path in sys.argv[1:]:
    t = db.mimeTypeForFile(path)
    out[path] = [t.name(), t.inherits("text/plain")]
print(json.dumps(out))
"""


def mime_types_of(paths: list[Path], data_dirs: list[Path], tmp: Path) -> dict[str, list]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(
        XDG_DATA_DIRS=os.pathsep.join(map(str, data_dirs)),
        XDG_DATA_HOME=str(tmp / "empty-home"),
        QT_QPA_PLATFORM="offscreen",
    )
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *map(str, paths)], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def samples(tmp_path: Path) -> dict[str, Path]:
    d = tmp_path / "files"
    d.mkdir()
    made = {
        "x.ris": RIS_TEXT,
        "x.nbib": NBIB_TEXT,
        "x.bib": BIB_TEXT,
        "ris-without-extension": "\ufeff" + RIS_TEXT,  # with the BOM some exporters write
        "nbib-without-extension": NBIB_TEXT,
        "bib-without-extension": BIB_TEXT,
    }
    out = {}
    for name, text in made.items():
        (d / name).write_text(text, encoding="utf-8")
        out[name] = d / name
    return out


def test_update_mime_database_and_qt_recognise_our_types(tmp_path: Path, samples):
    umd = require("update-mime-database", "shared-mime-info")
    data = tmp_path / "share"
    (data / "mime" / "packages").mkdir(parents=True)
    shutil.copyfile(MIME_XML, data / "mime" / "packages" / f"{APP_ID}.xml")
    proc = subprocess.run([umd, "-V", str(data / "mime")], capture_output=True, text=True, timeout=120)
    # update-mime-database reports problems in the XML on stderr but may still exit 0
    assert proc.returncode == 0, proc.stderr
    assert "error" not in proc.stderr.lower() and "warning" not in proc.stderr.lower(), proc.stderr
    assert (data / "mime" / "mime.cache").is_file()
    assert (data / "mime" / "application" / "x-research-info-systems.xml").is_file()

    # our database first, then freedesktop.org's (as on a desktop: /usr/share/mime)
    got = mime_types_of(list(samples.values()), [data, Path("/usr/share")], tmp_path)
    by_name = {Path(p).name: v for p, v in got.items()}
    assert by_name["x.ris"] == [RIS, True]
    assert by_name["x.nbib"] == [NBIB, True]
    assert by_name["x.bib"][0] == BIBTEX
    assert by_name["ris-without-extension"][0] == RIS, "RIS content (magic) not recognised"
    assert by_name["nbib-without-extension"][0] == NBIB, "MEDLINE content not recognised"
    assert by_name["bib-without-extension"][0] == BIBTEX, "BibTeX content not recognised"

    # and without our definitions the system does not know RIS: what the user met
    before = mime_types_of([samples["x.ris"], samples["ris-without-extension"]], [tmp_path / "nothing"], tmp_path)
    assert RIS not in [v[0] for v in before.values()], before


def test_definitions_add_to_the_standard_bibtex_type_without_redefining_it():
    from xml.etree import ElementTree as ET

    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(MIME_XML).getroot()
    types = {t.get("type"): t for t in root.findall("m:mime-type", ns)}
    assert set(types) == {RIS, NBIB, BIBTEX}
    for own in (RIS, NBIB):
        t = types[own]
        assert t.find("m:comment", ns) is not None
        assert t.find("m:sub-class-of", ns).get("type") == "text/plain"
        assert t.find("m:glob", ns) is not None and t.find("m:magic", ns) is not None
    # freedesktop.org owns text/x-bibtex (name, glob *.bib, parent): we only add magic
    bib = types[BIBTEX]
    assert [c.tag.split("}")[1] for c in bib] == ["magic"]


def test_desktop_entry_claims_the_types_we_define():
    entry = (LINUX / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    line = next(ln for ln in entry.splitlines() if ln.startswith("MimeType="))
    claimed = [t for t in line[len("MimeType=") :].split(";") if t]
    assert claimed == [BIBTEX, RIS, NBIB]
    metainfo = (LINUX / f"{APP_ID}.metainfo.xml").read_text(encoding="utf-8")
    assert re.findall(r"<mediatype>([^<]+)</mediatype>", metainfo) == claimed
