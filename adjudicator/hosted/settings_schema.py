"""What a hosted game's settings may hold: the bounds and names `settings.py` reads them by, and their JSON Schema
(for the OpenAPI document), so that the reader and the schema say the same."""

from __future__ import annotations

from typing import Any

from adjudicator import scoring

YEAR = 31_536_000  # seconds: the longest duration a setting may give
PHASE_KINDS = ("movement", "retreat", "adjustment")
MAX_EXTENSIONS, MAX_PAUSES, MAX_DISORDER, MAX_YEAR = 10, 100, 100, 9999
CLOCK_PATTERN = r"([01][0-9]|2[0-3]):[0-5][0-9]"  # HH:MM, 24-hour
DRAWS = {"dias": "only a draw of every survivor", "named": "draws naming some survivors allowed too"}
DISORDER_VOTES = {"yes": "a seat in civil disorder votes yes", "no": "a seat in civil disorder blocks a draw"}


def _number(low: int, high: int, description: str, nullable: bool = False) -> dict[str, Any]:
    """The schema of a whole number (or null)."""
    return {"type": ["integer", "null"] if nullable else "integer", "minimum": low, "maximum": high,
            "description": description}


def _keys(properties: dict[str, Any], description: str, required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The schema of an object of these properties and no others."""
    schema = {"type": "object", "properties": properties, "additionalProperties": False, "description": description}
    return {**schema, "required": list(required)} if required else schema


def _properties() -> dict[str, Any]:
    """Each setting's schema."""
    systems = sorted(scoring.load_systems())  # (names and aliases: a choice may give either)
    clock = _keys({"time": {"type": "string", "pattern": f"^{CLOCK_PATTERN}$", "description": "HH:MM, 24-hour"},
                   "zone": {"type": "string", "description": "An IANA time zone, such as Europe/Paris"}},
                  "A deadline clock", ("time", "zone"))
    return {
        "public_readiness": {"type": "boolean", "description": "Whether powers see who is ready (never what they "
                                                               "ordered)"},
        "phase_seconds": _number(0, YEAR, "Every phase's duration in seconds (null: no deadline; 0 needs a clock)",
                                 True),
        "phase_durations": _keys({kind: _number(0, YEAR, f"A {kind} phase's duration in seconds")
                                  for kind in PHASE_KINDS}, "Durations per phase kind, over phase_seconds"),
        "deadline_clock": {"oneOf": [{"type": "null"}, clock],
                           "description": "Deadlines fall at the first such local time at or after the phase's "
                                          "start plus its duration (duration 0: the next one after the start)"},
        "grace_seconds": _number(0, YEAR, "After a deadline, this long once more for powers that must act and have "
                                          "sent nothing (0: none)"),
        "nmr_extensions": _keys({"count": _number(0, MAX_EXTENSIONS, "How many extensions at most"),
                                 "seconds": _number(1, YEAR, "How long each extension is, in seconds")},
                                "Then extensions, while a power that must act has sent nothing"),
        "pause": _keys({"max_seconds": _number(1, YEAR, "A pause ends itself after this many seconds"),
                        "max_times": _number(0, MAX_PAUSES, "How many times a game may be paused")},
                       "The cap on the game master's pause"),
        "reminder_seconds": _number(0, YEAR, "A deadline.reminder webhook this long before each deadline (0: none)"),
        "draws": {"enum": list(DRAWS), "description": "dias: only draws of all survivors; named: named draws too"},
        "secret_votes": {"type": "boolean", "description": "Whether only a vote's outcome is shown (and who has "
                                                           "voted, to the game master)"},
        "votes_survive_phase": {"type": "boolean", "description": "Whether draw votes stay after a judged phase"},
        "disorder_votes": {"enum": list(DISORDER_VOTES), "description": "yes: a civil-disorder seat votes yes; no: "
                                                                        "it blocks a draw"},
        "disorder_after": _number(0, MAX_DISORDER, "Missed movement phases in a row before civil disorder (0: "
                                                   "never)"),
        "scoring": {"oneOf": [{"enum": systems}, {"type": "object", "required": ["system"],
                                                  "properties": {"system": {"enum": systems}}}],
                    "description": 'A scoring system\'s name, or {"system": NAME, PARAMETER: VALUE...}'},
        "end_year": _number(0, MAX_YEAR, "The game stops (a draw of the survivors) once this year is played "
                                         "(null: no limit)", True),
        "gunboat": {"type": "boolean", "description": "No messages at all: sending one is refused (422, saying the "
                                                      "game is gunboat)"},
        "anonymous_seats": {"type": "boolean", "description": "Seats are shown to the other seats as their power only "
                                                              "(never a label), messages' senders too"},
        "messages_visible_after_end": {"type": "boolean", "description": "Once the game has ended, every seat and "
                                                                         "the game master read every message (and "
                                                                         "the FAIR export carries them)"},
        "game_master_reads_messages": {"type": "boolean", "description": "The game master reads every message; "
                                                                         "false: only those it sent or was sent"},
    }


def schema_of(defaults: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of the settings object, each key's default from `defaults`."""
    properties = {key: {**schema, "default": defaults[key]} for key, schema in _properties().items()}
    return {**_keys(properties, "A hosted game's settings (every key optional)"),
            # Without a clock, a duration of 0 would judge a phase as it starts: refused.
            "if": {"properties": {"deadline_clock": {"type": "null"}}},
            "then": {"properties": {"phase_seconds": {"not": {"const": 0}},
                                    "phase_durations": {"additionalProperties": {"minimum": 1}}}}}
