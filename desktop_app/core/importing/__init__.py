"""Imports: files read into the library in one transaction, the papers written, JSON backups restored."""
