"""The store: engine, dialects, transactions and every SQL statement's building blocks."""

from desktop_app.core.store.store import Store, Tx

__all__ = ["Store", "Tx"]
