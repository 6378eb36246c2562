"""Hosted games: the service keeps each game, players send secret orders, and each phase is judged exactly once.

Built on the stateless machinery, never beside it: a game's position is its game file's data
(`gamefile.game_to_data`), each power's orders are read by `rules_of(board)` and a phase is judged by
`turn.play_turn`, so a hosted phase gets the same validation and the same report as `/v1/adjudicate`.

The flow: `tokens` (secrets shown once, kept as hashes) -> `models` (the tables) and `storage` (an engine
for SQLite or PostgreSQL, migrated by Alembic) -> `orders` (a submission judged on arrival) -> `service`
(games, submissions, adjudication under a row lock with a compare-and-set on the phase) -> `webhooks`
(signed notifications from an outbox, delivered off the request) and `limits` (sizes and rates).
"""
