#!/usr/bin/env python3
"""Write the Debian changelog for the marginalia .deb from the AppStream release notes.

    python3 packaging/linux/debchangelog.py METAINFO_XML DEB_REVISION MAINTAINER > changelog.Debian

The <releases> list in resources/linux/<app-id>.metainfo.xml is the one place release notes
are written; each <release> becomes a changelog entry (newest first, as AppStream lists them).
"""

from __future__ import annotations

import sys
import textwrap
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from email.utils import format_datetime


def deb_version(v: str, revision: str) -> str:
    import re

    return re.sub(r"\.?(a|b|rc|dev)(\d+)", r"~\1\2", v) + "-" + revision


def main() -> int:
    metainfo, revision, maintainer = sys.argv[1:4]
    releases = ET.parse(metainfo).getroot().findall("./releases/release")
    if not releases:
        raise SystemExit(f"debchangelog: no <release> in {metainfo}")
    out = []
    for rel in releases:
        items = []
        desc = rel.find("description")
        if desc is not None:
            for el in desc.iter():
                if el.tag in ("p", "li") and (el.text or "").strip():
                    items.append(" ".join("".join(el.itertext()).split()))
        items = items or [f"Marginalia {rel.get('version')}."]
        day = datetime.strptime(rel.get("date"), "%Y-%m-%d").replace(tzinfo=UTC)
        out.append(f"marginalia ({deb_version(rel.get('version'), revision)}) unstable; urgency=medium\n")
        for item in items:
            out.append(textwrap.fill(item, 78, initial_indent="  * ", subsequent_indent="    "))
        out.append(f"\n -- {maintainer}  {format_datetime(day)}\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
