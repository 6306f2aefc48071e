"""Marginalia: a desktop reading room for paper abstracts."""

# Kept by hand equal to pyproject.toml's [project] version (tests/e2e/test_cli_startup.py checks
# it): ``marginalia --version`` then needs no importlib.metadata (about 40 ms) at run time.
__version__ = "0.1.0"
