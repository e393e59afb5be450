"""Alembic environment for the saved-games database (:mod:`leviathans.server.storage`).

There is no alembic.ini: :class:`~leviathans.server.storage.SqlStorage` upgrades the database
itself whenever it opens one, passing its own connection (already in a transaction, holding the
migration lock) as ``config.attributes["connection"]``. By hand, build the configuration with
:func:`~leviathans.server.storage.alembic_config`, e.g. to write the next revision::

    from alembic import command
    from leviathans.server.storage import alembic_config
    command.revision(alembic_config("sqlite:///tmp/x.db"), "what it does", rev_id="0003",
                     autogenerate=True)

A revision must never import the live table definitions: it describes the schema as it was at
that revision, and the live ones will have moved on.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import context

from leviathans.server.storage import metadata


def _run(connection: Any) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things: batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    config = context.config
    if context.is_offline_mode():  # `alembic upgrade --sql`: print the SQL only
        context.configure(url=config.get_main_option("sqlalchemy.url"),
                          target_metadata=metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: use leviathans.server.storage.alembic_config(url)")
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


run()
