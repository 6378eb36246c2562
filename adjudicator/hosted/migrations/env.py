"""Alembic environment: migrations run on the connection the Store hands over (see storage.Store.migrate)."""

from __future__ import annotations

from alembic import context

from adjudicator.hosted.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - `alembic` run by hand: needs a URL in the config
    from sqlalchemy import create_engine

    url = context.config.get_main_option("sqlalchemy.url")
    if url is None:
        raise SystemExit("alembic: set sqlalchemy.url in alembic.ini (the database to migrate)")
    connection = create_engine(url).connect()
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
