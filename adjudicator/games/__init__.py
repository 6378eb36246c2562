"""The four games on the shared kit, one folder each: Diplomacy (any board played by its rules: the standard map,
the Arctic variant, a game master's own), Arctic Race, Arctica and 2019: The ARCTIC. Each exposes `RULES`, a
`GameRules` (adjudicator/game.py), found by the `rules:` name its variant files use."""
