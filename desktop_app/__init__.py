"""Marginalia: a desktop reading room for paper abstracts."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("marginalia")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0"
