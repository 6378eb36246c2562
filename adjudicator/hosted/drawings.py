"""The boards' drawings kept in the games' database (`hosted_drawings`): a shelf for `adjudicator.games.diplomacy.picture.stored`,
so a board's geometry is computed once for every worker and instance on the database, never per request."""

from __future__ import annotations

import time

from sqlalchemy import select

from adjudicator.hosted.models import Drawing
from adjudicator.hosted.storage import Store, upsert_on


class DatabaseShelf:
    """Drawings by board key in the games' database (read and written each in a transaction of its own)."""

    def __init__(self, store: Store):
        self.store = store

    def get(self, key: str) -> str | None:
        """The drawing stored under `key`, or None."""
        with self.store.sessions() as session:
            return session.scalar(select(Drawing.body).where(Drawing.key == key))

    def put(self, key: str, text: str) -> None:
        """Store a drawing (a second writer of the same key leaves the first's: both computed the same)."""
        table = Drawing.__table__
        with self.store.transaction() as session:
            session.execute(upsert_on(self.store.sqlite, table).values(key=key, body=text, created_at=time.time())
                            .on_conflict_do_nothing(index_elements=[table.c.key]))
