"""Names the app is known by: one place for the app id, display name and version."""

from __future__ import annotations

from desktop_app import __version__

APP_ID = "org.marginalia.Marginalia"  # reverse-DNS id: .desktop, metainfo, icons
APP_NAME = "Marginalia"
ORG_NAME = "Marginalia"
VERSION = __version__
