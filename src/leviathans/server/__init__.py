"""The web game server: saved games (:mod:`.storage`) and, on top, the HTTP app.

Storage is kept apart from the app so the app can run on a throw-away in-memory store in tests
and on SQLite or PostgreSQL in play, with the same behaviour.
"""
