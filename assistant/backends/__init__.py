"""The store's tables behind one interface: SQLite (one file, the default) and PostgreSQL (several
app servers on one database).  ``assistant/store.py`` holds the game logic and calls these."""
