"""The store: the log, its timeline, saved states, on SQLite and PostgreSQL (the quick subset runs them)."""
