"""Hosted games: the service keeps each game, players send secret orders, and each phase is judged exactly once.

Built on the stateless machinery, never beside it: a game's position is its game file's data
(`gamefile.game_to_data`), each power's orders are read by `rules_of(board)` and a phase is judged by
`turn.play_turn`, so a hosted phase gets the same validation and the same report as `/v1/adjudicate`.

The flow: `tokens` (secrets shown once, kept as hashes) -> `models` (the tables) and `storage` (an engine
for SQLite or PostgreSQL, migrated by Alembic) -> `text` (what is taken at the door) -> `orders` (a seat's
orders read item by item as that seat's, judged on arrival) -> `service` (games, submissions, adjudication
under a row lock with a compare-and-set on the phase) -> `webhooks` (signed notifications from an outbox,
delivered off the request, every attempt kept) through `egress` (the public internet only, unless allowed),
`limits` (sizes, and rates shared through the database) and `tick` (`adjudicator games tick`).
"""
