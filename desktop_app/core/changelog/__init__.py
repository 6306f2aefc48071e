"""What changed: the change log's kinds and descriptions, the rows a write leaves, and who made it."""
