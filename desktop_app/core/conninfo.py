"""Connection strings of shared libraries, read without a driver: which hold a password, the same
without it (what may be shown or saved), and libpq's keyword form (``host=db dbname=papers``).

A password given on the command line is visible to every user of the machine (``ps``), so the
command line refuses one (:data:`PASSWORD_REFUSED`); libpq finds it in ``~/.pgpass``,
``PGPASSWORD`` or a service file instead. A keyword string is a server, never a folder name: it
becomes the equivalent URL (:func:`keyword_url`). No import here touches the database.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, urlsplit

PASSWORD_REFUSED = (
    "a password given on the command line is visible to every user of this machine (ps): "
    "put it in ~/.pgpass (host:port:database:user:password, chmod 600), in PGPASSWORD, or in a "
    "service file entry used as postgresql:///?service=NAME, and give --library without it, "
    "e.g. postgresql://USER@HOST/DB (see docs/shared-library.md)"
)

_SCHEMES = ("postgresql:", "postgres:")
# one keyword=value pair of libpq's keyword form: a bare value or a quoted one with \' and \\ escapes
_PAIR = re.compile(r"\s*([A-Za-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']*)")
# libpq's keywords (the common ones are enough to tell a connection string from a folder name)
_KEYWORDS = frozenset(
    {
        "host",
        "hostaddr",
        "port",
        "dbname",
        "user",
        "password",
        "passfile",
        "service",
        "sslmode",
        "sslrootcert",
        "sslcert",
        "sslkey",
        "connect_timeout",
        "application_name",
        "options",
        "target_session_attrs",
        "channel_binding",
        "gssencmode",
        "sslcompression",
        "krbsrvname",
        "require_auth",
        "sslnegotiation",
        "load_balance_hosts",
        "client_encoding",
        "keepalives",
    }
)
# in any text: a password= value (bare or quoted) and a URL's user:password@
_PASSWORD_VALUE = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&'\"]+)", re.IGNORECASE)
_URL_PASSWORD = re.compile(r"([a-z][a-z0-9+.-]*://[^:/@\s]*):[^@\s/]*@", re.IGNORECASE)


def is_server_url(location: object) -> bool:
    """Whether ``--library`` names a PostgreSQL server (core/shared_library.py), not a folder."""
    return isinstance(location, str) and location.lower().startswith(_SCHEMES)


def keyword_pairs(text: str) -> list[tuple[str, str]] | None:
    """The (keyword, value) pairs of a libpq keyword string, or None when ``text`` is not one
    (every word a ``keyword=value`` of a libpq keyword)."""
    pairs: list[tuple[str, str]] = []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        m = _PAIR.match(text, pos)
        if m is None or m.group(1).lower() not in _KEYWORDS:
            return None
        value = m.group(2)
        if value.startswith("'"):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        pairs.append((m.group(1).lower(), value))
        pos = m.end()
    return pairs or None


def is_keyword_string(location: object) -> bool:
    return isinstance(location, str) and keyword_pairs(location) is not None


def keyword_url(text: str) -> str:
    """The URL libpq reads as the same connection: ``host=db dbname=papers`` ->
    ``postgresql:///?host=db&dbname=papers``."""
    pairs = keyword_pairs(text) or []
    return "postgresql:///?" + "&".join(f"{k}={quote(v, safe='/:,')}" for k, v in pairs)


def has_password(location: str) -> bool:
    """Whether a URL or a keyword string carries a password."""
    if is_keyword_string(location):
        return any(k == "password" for k, _ in keyword_pairs(location) or [])
    parts = urlsplit(location)
    try:
        in_userinfo = bool(parts.password)
    except ValueError:  # a malformed port: judge by the text
        in_userinfo = bool(_URL_PASSWORD.search(location))
    return in_userinfo or any(k.lower() == "password" for k, _ in parse_qsl(parts.query))


def redact(url: str) -> str:
    """The URL without its password (user info or ``password=``): what may be shown or saved."""
    if is_keyword_string(url):
        return " ".join(f"{k}={v}" for k, v in keyword_pairs(url) or [] if k != "password")
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hostport = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}@{hostport}"
    # the query's own spelling is kept (host=/run/postgresql stays readable); only password= goes
    query = "&".join(p for p in parts.query.split("&") if p and p.split("=", 1)[0].lower() != "password")
    return (
        f"{parts.scheme}://{netloc}{parts.path}"
        + (f"?{query}" if query else "")
        + (f"#{parts.fragment}" if parts.fragment else "")
    )


def scrub(message: str) -> str:
    """``message`` with every password it may quote masked (``password=***``,
    ``postgresql://user:***@host``): the last guard before a message is shown."""
    message = _PASSWORD_VALUE.sub(r"\1***", message)
    return _URL_PASSWORD.sub(r"\1:***@", message)
