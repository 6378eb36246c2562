"""JSON schemas of the API's requests and responses: validation and the OpenAPI document use these same ones.

Long file: the schemas are data, one per request and response, kept together as the OpenAPI document is."""

from __future__ import annotations

from typing import Any

from adjudicator import __version__
from adjudicator.hosted.settings import SETTINGS_SCHEMA

_STR = {"type": "string"}
_INT = {"type": "integer"}
_PHASE = {
    "type": "object",
    "properties": {"season": _STR, "year": _INT, "type": _STR, "name": _STR},
    "required": ["season", "year", "type"],
}

_LENIENT = {"type": "boolean", "default": True,
            "description": "true (the default): lines that are not orders are reported in `sheet_problems` and the "
                           "other orders are judged; false: any such line refuses the request (400, every line in "
                           "`errors`) and nothing is judged."}
_HISTORY = {"type": "boolean", "default": True,
            "description": "false: `next_state` comes without `history` (for a client that keeps its own copy)."}
_RULES = {"type": "string", "maxLength": 2000,
          "description": "Rule options (DATC chapter 4 answers) over the game's own: a set and/or keys, e.g. "
                         "'1971' or '2000, 4.A.2: szykman' (README, 'Rule options'); unknown ones are refused (400)."}

# Every phase-bound hosted write names its phase: required, checked in the write's own transaction. Missing:
# 400, another phase: 409, each naming the current phase (`current_phase_no`, `current_phase`); never "the
# current one", so a replayed request cannot act on a later phase.
_PHASE_NO = {"type": "integer", "minimum": 1, "maximum": 2147483647,
             "description": "The phase this is for: the game's current `phase_no` (GET /v1/games/{id}); 409 naming "
                            "the current phase when the game is elsewhere, 400 naming it when missing"}

SCHEMAS: dict[str, Any] = {
    "Problem": {
        "type": "object",
        "properties": {
            "type": _STR, "title": _STR, "status": _INT, "detail": _STR, "pointer": _STR,
            "line": _INT, "column": _INT, "suggestions": {"type": "array", "items": _STR},
            "errors": {"type": "array", "items": {"type": "object"}},
            "current_phase_no": {"type": "integer", "description": "A hosted write for no phase or another: the "
                                                                   "game's current phase"},
            "current_phase": {"type": "string", "description": "Its name"},
        },
        "required": ["type", "title", "status", "detail"],
    },
    "Phase": _PHASE,
    "GameState": {
        "description": "A game state, as the game file holds it: `variant` plus the game's own fields. For "
                       "Diplomacy variants: phase, centres (power -> [centres]), units (power -> ['A Par', ...]), "
                       "dislodged, contested, history.",
        "type": "object",
        "properties": {
            "variant": _STR,
            "phase": {"oneOf": [_PHASE, _STR]},
            "centres": {"type": "object", "additionalProperties": {"type": "array", "items": _STR}},
            "units": {"type": "object", "additionalProperties": {"type": "array", "items": _STR}},
            "dislodged": {"type": "array", "items": {"type": "object"}},
            "contested": {"type": "array", "items": _STR},
            "history": {"type": "array"},
            "options": {"type": "object", "description": "The game's own rule options over the variant's: DATC keys "
                                                         "(4.A.2: 1971), set, builds, default_builds, victory "
                                                         "(variants/FORMAT.md)."},
            "board": {"$ref": "#/components/schemas/Board"},
        },
        "anyOf": [{"required": ["variant"]}, {"required": ["board"]}],
    },
    "Board": {
        "description": "A board sent inline, beside or instead of `variant`: the variant file's structure as JSON "
                       "(variants/FORMAT.md). It is checked as `adjudicator variant check` checks a file (422 with "
                       "every problem and its JSON pointer in `errors`), at most 512 KiB as compact JSON (413).",
        "type": "object",
    },
    "StartRequest": {
        "type": "object",
        "properties": {"variant": _STR, "board": {"$ref": "#/components/schemas/Board"}},
        "anyOf": [{"required": ["variant"]}, {"required": ["board"]}],
        "additionalProperties": False,
    },
    "Orders": {
        "description": "An order sheet as text (power headers or `Power: order` lines), order strings per power, "
                       "or orders as data: a list of order objects (no text read; Diplomacy variants).",
        "oneOf": [
            _STR,
            {"type": "object", "additionalProperties": {"type": "array", "items": _STR}},
            {"type": "array", "items": {"$ref": "#/components/schemas/OrderObject"}},
        ],
    },
    "OrderObject": {
        "description": "One order as data, e.g. {\"power\": \"France\", \"kind\": \"move\", \"unit\": \"A par\", "
                       "\"destination\": \"bur\"}; judged like the same order written as text. The fields are checked "
                       "by the reader, not by this schema, so that a bad object (unknown place or kind, missing or "
                       "mistyped field) is reported like an unreadable line: in `sheet_problems`, with a `pointer` "
                       "such as `/orders/3/destination` and the closest names (with `lenient` false it refuses the "
                       "request), and the other orders are judged. An order's `line` in the report is its position "
                       "in the list, from 1.",
        "properties": {
            "power": {"description": "string (required): the power's name or adjective"},
            "kind": {"description": "string (required): hold, move, support, convoy, retreat, disband, remove, "
                                    "build or waive"},
            "unit": {"description": "string or {type, location}: the unit ordered (for a build, the new unit): "
                                    "'A par', 'F stp/nc', 'Army Paris', or a bare place (the type is then left out)"},
            "target": {"description": "string or {type, location}: the unit supported or convoyed, like `unit`"},
            "destination": {"description": "string: where the unit (or the supported or convoyed one) goes; "
                                           "'stp/nc' allowed; left out for a support to hold"},
            "coast": {"description": "string: the destination's coast (nc, sc, ec, wc or a spelling of one)"},
            "via_convoy": {"description": "boolean (default false): a move by convoy"},
        },
    },
    "AdjudicateRequest": {
        "type": "object",
        "properties": {
            "state": {"$ref": "#/components/schemas/GameState"},
            "orders": {"$ref": "#/components/schemas/Orders"},
            "lenient": _LENIENT,
            "history": _HISTORY,
            "rules": _RULES,
        },
        "required": ["state"],
        "additionalProperties": False,
    },
    "OrderOutcome": {
        "type": "object",
        "properties": {
            "power": {"type": ["string", "null"]}, "order": _STR, "status": _STR, "reason": _STR,
            "understood_as": _STR, "line": _INT, "cause": {"type": "object"},
            "unit": {"type": "object", "properties": {"type": _STR, "location": _STR, "power": _STR}},
        },
        "required": ["order", "status", "reason"],
    },
    "AdjudicateResponse": {
        "type": "object",
        "properties": {
            "phase": {"$ref": "#/components/schemas/Phase"},
            "orders": {"type": "array", "items": {"$ref": "#/components/schemas/OrderOutcome"}},
            "dislodged": {"type": "array", "items": {"type": "object"}},
            "destroyed": {"type": "array"},
            "disbanded_by_terrain": {"type": "array"},
            "built": {"type": "array"},
            "removed": {"type": "array"},
            "contested": {"type": "array"},
            "centre_changes": {"type": "array"},
            "skipped": {"type": "array"},
            "rules": {"type": "string", "description": "The rule options played (Diplomacy boards): 'datc-3.0', or "
                                                        "a set and keys, as `rules` in a request takes them"},
            "next_phase": {"$ref": "#/components/schemas/Phase"},
            "winner": {"type": ["string", "null"]},
            "sheet_problems": {"type": "array"},
            "notes": {"type": "array"},
            "powers": {"type": "array"},
            "next_state": {"$ref": "#/components/schemas/GameState"},
            "trace": {"type": "array"},
            "summary": {"type": "object"},
            "end": {"type": ["object", "null"], "description": "The end the rules reached with this phase (a solo, "
                                                               "an Arctic game over): the end record "
                                                               "`adjudicator score` reads; null: the game goes on"},
        },
        "required": ["orders", "next_state"],
    },
    "ParseRequest": {
        "type": "object",
        "properties": {"variant": _STR, "board": {"$ref": "#/components/schemas/Board"},
                       "orders": {"$ref": "#/components/schemas/Orders"}, "lenient": _LENIENT,
                       "state": {"$ref": "#/components/schemas/GameState",
                                 "description": "The position the orders are for: a sheet for another kind of "
                                                "phase is then refused (422)."}},
        "required": ["orders"],
        "anyOf": [{"required": ["variant"]}, {"required": ["board"]}],
        "additionalProperties": False,
    },
    "ParseResponse": {
        "type": "object",
        "properties": {"orders": {"type": "array", "items": {"type": "object"}}, "notes": {"type": "array"},
                       "sheet_problems": {"type": "array", "items": {"type": "object"}}},
        "required": ["orders", "sheet_problems"],
    },
    "LegalRequest": {
        "type": "object",
        "properties": {"state": {"$ref": "#/components/schemas/GameState"}, "power": _STR, "rules": _RULES,
                       "parts": {"type": "boolean", "description": "Also each order's parts (`parts`: unit, kind, "
                                 "target, destination, convoy path), as a page picks orders on the map"}},
        "required": ["state"],
        "additionalProperties": False,
    },
    "LegalResponse": {
        "type": "object",
        "properties": {"phase": {"$ref": "#/components/schemas/Phase"},
                       "powers": {"type": "object", "additionalProperties": {"type": "object"}},
                       "adjustments": {"type": "object", "additionalProperties": _INT,
                                       "description": "In adjustment phases: builds (+) or removals (-) due"},
                       "parts": {"type": "object", "additionalProperties": {"type": "object"},
                                 "description": "With `parts: true`: each list's orders as parts (order, kind, unit "
                                                "{type, location}, target, destination, path, via_convoy)"}},
        "required": ["phase", "powers"],
    },
    "DatcRequest": {
        "type": "object",
        "properties": {"text": _STR, "board": {"$ref": "#/components/schemas/Board",
                                               "description": "Cases whose VARIANT_ALL is this board's name run on it."},
                       "rules": _RULES},
        "required": ["text"],
        "additionalProperties": False,
    },
    "DatcResponse": {
        "type": "object",
        "properties": {
            "passed": _INT, "failed": _INT, "summary": _STR,
            "cases": {"type": "array", "items": {"type": "object", "properties": {
                "name": _STR, "line": {"type": ["integer", "null"]}, "passed": {"type": "boolean"},
                "problems": {"type": "array", "items": _STR}, "notes": {"type": "array", "items": _STR}},
                "required": ["name", "passed"]}},
            "errors": {"type": "array", "items": _STR},
        },
        "required": ["passed", "failed", "cases"],
    },
    "RenderRequest": {
        "type": "object",
        "properties": {
            "state": {"$ref": "#/components/schemas/GameState"},
            "orders": {"$ref": "#/components/schemas/Orders"},
            "results": {"description": "A phase report (the `orders` list of /v1/adjudicate, or the whole response) "
                                       "to draw on the state it was given for",
                        # an array is the `orders` list; an object, the whole report (`items` and `properties`
                        # each apply to their own type, so a wrong field is named by its pointer)
                        "type": ["array", "object"], "items": {"$ref": "#/components/schemas/DrawnResult"},
                        "properties": {"orders": {"type": "array", "items": {"$ref": "#/components/schemas/DrawnResult"}},
                                       **{k: {"type": "array", "items": {"$ref": "#/components/schemas/DrawnUnit"}}
                                          for k in ("dislodged", "destroyed", "disbanded_by_terrain", "built",
                                                    "removed")}}},
            "format": {"enum": ["png", "svg"]},
            "lenient": _LENIENT,
            "width": {"type": "integer", "minimum": 200, "maximum": 4000},
        },
        "required": ["state"],
        "additionalProperties": False,
    },
    "DrawnResult": {
        "type": "object",
        "description": "One line of a phase report, as a picture reads it (other members are ignored)",
        "properties": {"power": {"type": ["string", "null"]}, "order": _STR, "status": _STR, "reason": _STR,
                       "understood_as": _STR, "unit": {"$ref": "#/components/schemas/DrawnUnit"}},
    },
    "DrawnUnit": {
        "type": "object",
        "properties": {"power": {"type": ["string", "null"]}, "type": _STR, "location": _STR},
    },
    "VariantSummary": {
        "type": "object",
        "description": "A shipped variant: its game (`rules`), and for Diplomacy boards the players, centres, "
                       "rule options (build rule, civil-disorder rule, victory) and first phase; imported boards "
                       "name their `origin`.",
        "properties": {"name": _STR, "title": _STR, "rules": _STR, "origin": _STR,
                       "players": {"oneOf": [_INT, _STR], "description": "a number, or a range such as 2-6"},
                       "powers": {"type": "array", "items": _STR}, "centres": _INT, "options": {"type": "object"},
                       "start": _STR},
        "required": ["name", "title", "rules"],
    },
    "Variant": {"type": "object", "properties": {"name": _STR, "title": _STR, "rules": _STR},
                "required": ["name", "title", "rules"]},
    "Health": {"type": "object", "properties": {"status": _STR, "version": _STR}, "required": ["status"]},
    "Ready": {"type": "object", "properties": {"status": {"const": "ready"}, "version": _STR, "database": _STR},
              "required": ["status", "database"]},
}

# --- hosted games (/v1/games) --------------------------------------------------------------------------------
_NAMES = {"type": "array", "items": _STR}
_ORDER_STATUS = {
    "type": "object",
    "properties": {"line": _INT, "order": _STR, "status": {"enum": ["ok", "unreadable", "illegal", "void", "ignored"]},
                   "reason": _STR, "column": {"type": ["integer", "null"]}, "suggestions": _NAMES,
                   "understood_as": _STR},
    "required": ["line", "order", "status"],
}
_PHASE_SUMMARY: dict[str, Any] = {
    "type": "object",
    "properties": {"phase_no": _INT, "phase": _STR, "trigger": {"enum": ["gm", "ready", "deadline", "imported"]},
                   "adjudicated_at": _STR, "next_phase": _STR, "status": {"enum": ["active", "paused", "ended"]},
                   "missed": {"type": "array", "items": _STR,
                              "description": "Who had a choice to make and sent no orders (NMR)"},
                   "end": {"type": ["object", "null"], "description": "The end this judgement reached (a solo, a "
                                                                     "year limit, every seat in civil disorder)"}},
    "required": ["phase_no", "phase", "trigger", "adjudicated_at", "missed"],
}
_TO = {"type": ["string", "array"], "items": {"type": "string", "maxLength": 100}, "maxItems": 33,
       "description": '"ALL" (every seat), or a list of the seats (powers) and "game master" it is for, the sender '
                      "not among them (the service refuses anything else, naming it)"}
SCHEMAS.update({
    "CreateGameRequest": {
        "type": "object",
        "properties": {
            "variant": _STR, "board": {"$ref": "#/components/schemas/Board"},
            "name": {"type": "string", "maxLength": 200},
            "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 100},
                       "description": "A label per power (a player's name), shown to everyone"},
            "seats": {"type": "array", "items": _STR, "maxItems": 32,
                      "description": "The players, for games whose set-up names them (arctic-race, arctic2019); "
                                     "by default the variant's powers or the position's players"},
            "state": {"type": "object", "description": "A starting position (the game file's data) instead of the "
                                                       "variant's opening"},
            "deadline": {"type": "object", "properties": {"phase_seconds": {"type": "integer", "minimum": 1,
                                                                           "maximum": 31536000}},
                         "additionalProperties": False,
                         "description": "Each phase is judged this long after it starts (the first request after it, "
                                        "or `adjudicator games tick`)"},
            "public_readiness": {"type": "boolean", "default": False,
                                 "description": "Whether powers see who has submitted and who is ready"},
            "settings": SETTINGS_SCHEMA,
            "bots": {"type": "array", "items": _STR, "maxItems": 32,
                     "description": "The seats a bot plays (shown to every seat as `kind: bot`)"},
            "webhook_url": {"type": "string", "maxLength": 2000},
            "rules": _RULES,
            "record": {"type": "object", "description": "A recorded game to begin from, with its past phases: a "
                                                        "saved game of the diplomacy package or FAIR's game JSON "
                                                        "v1.0 (instead of variant, board and state)"},
        },
        "anyOf": [{"required": ["variant"]}, {"required": ["board"]}, {"required": ["record"]}],
        "additionalProperties": False,
    },
    "CreateGameResponse": {
        "type": "object",
        "properties": {"id": _STR, "name": _STR, "variant": _STR, "phase": _STR, "phase_no": _INT,
                       "game_master_token": _STR, "tokens": {"type": "object", "additionalProperties": _STR},
                       "webhook_secret": _STR, "deadline": {"type": ["string", "null"]}},
        "required": ["id", "game_master_token", "tokens", "webhook_secret", "phase"],
        "description": "The tokens are shown this once (only their hashes are kept); the webhook secret is kept as "
                       "it is (signing needs it) and shown again only when the game master rotates it.",
    },
    "HostedGame": {
        "type": "object",
        "properties": {
            "id": _STR, "name": _STR, "variant": _STR, "status": {"enum": ["active", "paused", "ended"]},
            "phase": _STR, "phase_no": _INT, "phases_judged": _INT, "deadline": {"type": ["string", "null"]},
            "settings": {"type": "object"}, "you": _STR, "state": {"type": "object"},
            "end": {"oneOf": [{"$ref": "#/components/schemas/GameEnd"}, {"type": "null"}]},
            "pause": {"type": "object", "properties": {
                "paused_at": {"type": ["string", "null"]}, "resumes_at": {"type": ["string", "null"],
                                                                         "description": "The pause's cap"},
                "deadline_left_seconds": {"type": ["number", "null"]}, "pauses": _INT, "pauses_allowed": _INT}},
            "deadline_extended": {"type": "object", "properties": {"grace": {"type": "boolean"}, "extensions": _INT},
                                  "description": "This phase's grace period and NMR extensions used so far"},
            "seats": {"type": "array", "items": {"type": "object", "properties": {
                "power": _STR, "label": _STR, "must_act": {"type": "boolean"}, "submitted": {"type": "boolean"},
                "ready": {"type": "boolean"}, "kind": {"enum": ["player", "bot"]},
                "civil_disorder": {"type": "boolean", "description": "Missed the settings' number of movement "
                                                                      "phases in a row: counted as ready, its orders "
                                                                      "the rules' defaults, until it sends orders"},
                "missed": {"type": "integer", "description": "Phases it had to act in and sent nothing (NMR)"},
                "missed_in_row": {"type": "integer", "description": "Movement phases missed in a row (civil "
                                                                     "disorder at the settings' `disorder_after`)"},
                "survivor": {"type": "boolean"},
                "holders": {"type": "array", "items": {"type": "object", "properties": {
                    "from_phase": _INT, "kind": _STR}}, "description": "Who played it: from which phase each"},
                "vote": {"type": ["object", "null"], "description": "The seat's vote: its own, or every seat's "
                                                                    "when votes are not secret"},
                "voted": {"type": "boolean", "description": "To the game master, when votes are secret"}},
                "required": ["power", "label", "must_act", "civil_disorder", "missed"]}},
        },
        "required": ["id", "status", "phase", "phase_no", "seats", "state", "you", "end"],
    },
    "SubmitOrdersRequest": {
        "type": "object",
        "properties": {"orders": {"oneOf": [{"type": "array", "items": _STR}, _STR],
                                  "description": "This power's orders (a list, one order an item, or text read as an "
                                                 "order sheet is: headers, comments and blank lines are no orders); "
                                                 "they replace any sent before for this phase"},
                       "ready": {"type": "boolean"},
                       "power": {"type": "string", "maxLength": 100,
                                 "description": "The game master's token gives this power's orders (recorded as "
                                                "given by the game master); a power's token may name only itself"},
                       "phase_no": _PHASE_NO},
        "required": ["orders", "phase_no"],
        "additionalProperties": False,
    },
    "ReadyRequest": {"type": "object", "properties": {"ready": {"type": "boolean"}, "phase_no": _PHASE_NO},
                     "required": ["ready", "phase_no"], "additionalProperties": False},
    "GameVersion": {
        "type": "object",
        "properties": {"version": _STR, "changed": {"type": "boolean"},
                       "retry_ms": {"type": "integer", "minimum": 0, "description": "Wait this long before asking "
                                    "again (0: ask again at once, with `since` the version given)"}},
        "required": ["version", "changed", "retry_ms"],
    },
    "OwnOrders": {
        "type": "object",
        "properties": {"phase": _STR, "phase_no": _INT, "orders": {"type": "array", "items": _ORDER_STATUS},
                       "ready": {"type": "boolean"}, "adjudicated": {"oneOf": [_PHASE_SUMMARY, {"type": "null"}]},
                       "given_by": _STR},
        "required": ["phase", "phase_no", "orders", "ready"],
    },
    "AdjudicateGameRequest": {"type": "object", "properties": {"phase_no": _PHASE_NO}, "required": ["phase_no"],
                              "additionalProperties": False},
    "PhaseSummary": _PHASE_SUMMARY,
    "JudgedPhase": {
        "type": "object",
        "properties": {**_PHASE_SUMMARY["properties"],
                       "orders": {"type": "object", "additionalProperties": _NAMES},
                       "given_by": {"type": "object", "additionalProperties": _STR,
                                    "description": "Who gave each power's orders: the power, or the game master"},
                       "report": {"type": "object"}, "position_before": {"type": "object"},
                       "position_after": {"type": "object"}},
        "required": ["phase_no", "phase", "orders", "report", "position_before", "position_after"],
    },
    "DeadlineRequest": {
        "type": "object",
        "description": "Exactly one of `at` and `in_seconds`. The new deadline is this phase's only: the game's "
                       "`phase_seconds` still sets the next phases' deadlines.",
        "properties": {"at": {"type": ["string", "null"], "maxLength": 64,
                              "description": "An ISO 8601 time with its zone (2030-01-31T18:00:00Z), in the future "
                                             "and at most a year away; null: the phase has no deadline"},
                       "in_seconds": {"type": "integer", "minimum": 1, "maximum": 31536000,
                                      "description": "The deadline this many seconds from now"},
                       "phase_no": _PHASE_NO},
        "required": ["phase_no"],
        "additionalProperties": False,
    },
    "GameEnd": {
        "type": "object",
        "properties": {"kind": {"enum": ["solo", "draw", "concession", "abandoned", "stopped"]},
                       "powers": {"type": "array", "items": _STR},
                       "scores": {"type": "object", "additionalProperties": {"type": "number"},
                                  "description": "By the game's scoring system, rounded half up to 2 places"},
                       "exact": {"type": "object", "additionalProperties": _STR, "description": "Exact: 'n/d'"},
                       "scoring": {"type": ["string", "null"]},
                       "phase_no": {"type": "integer", "description": "The phases judged when it ended (its last "
                                                                      "judged phase's number; 0: before any)"},
                       "by": {"enum": ["rules", "votes", "game master", "civil disorder", "year limit"]},
                       "at": _STR, "record": {"type": "object", "description": "The end record "
                                                                               "(`adjudicator score` reads it)"}},
        "required": ["kind", "powers", "scores", "phase_no"],
    },
    "VoteRequest": {
        "type": "object",
        "description": "A draw vote (`draw`), a concession (`concede_to`), or neither: the vote withdrawn.",
        "properties": {"phase_no": _PHASE_NO,
                       "draw": {"oneOf": [{"const": "dias"},
                                          {"type": "array", "items": {"type": "string", "maxLength": 100},
                                           "maxItems": 64},
                                          {"type": "null"}],
                                "description": '"dias": the draw of every survivor; a list: a named draw (when the '
                                               "game's `draws` is `named`)"},
                       "concede_to": {"type": ["string", "null"], "maxLength": 100}},
        "required": ["phase_no"], "additionalProperties": False,
    },
    "Vote": {"type": "object", "properties": {"phase": _STR, "phase_no": _INT, "vote": {"type": ["object", "null"]},
                                              "ended": {"type": "boolean"},
                                              "end": {"oneOf": [{"$ref": "#/components/schemas/GameEnd"},
                                                                {"type": "null"}]}},
             "required": ["vote", "ended"]},
    "EndGameRequest": {
        "type": "object",
        "properties": {"kind": {"enum": ["draw", "concession", "stopped", "abandoned"]},
                       "powers": {"type": "array", "items": {"type": "string", "maxLength": 100}, "maxItems": 64,
                                  "description": "A draw's powers (none: every survivor), the power conceded to"},
                       "phase_no": {**_PHASE_NO, "description": "Optional: when given, it must be the current phase"}},
        "required": ["kind"], "additionalProperties": False,
    },
    "Ended": {"type": "object", "properties": {"id": _STR, "status": _STR,
                                               "end": {"$ref": "#/components/schemas/GameEnd"}}},
    "Scores": {"type": "object", "properties": {
        "ended": {"type": "boolean"}, "system": _STR,
        "scores": {"type": "object", "additionalProperties": {"type": "number"}},
        "exact": {"type": "object", "additionalProperties": _STR},
        "end": {"type": "object"}, "if_ended_now": {"type": "object", "description": "Not ended: the draw of "
                                                                                  "every survivor scored"}},
               "required": ["ended", "system", "scores"]},
    "PhaseBoundRequest": {"type": "object", "properties": {"phase_no": _PHASE_NO}, "required": ["phase_no"],
                          "additionalProperties": False},
    "Paused": {"type": "object", "properties": {"status": _STR, "pause": {"type": "object"},
                                                "deadline": {"type": ["string", "null"]}}},
    "ReplaceSeatRequest": {"type": "object", "properties": {
        "phase_no": _PHASE_NO, "kind": {"enum": ["player", "bot"], "default": "player"}},
        "required": ["phase_no"], "additionalProperties": False},
    "ReplacedSeat": {"type": "object", "properties": {
        "power": _STR, "kind": _STR, "token": {"type": "string", "description": "The new token, shown this once; "
                                                                                 "the old one is refused from now"},
        "holders": {"type": "array", "items": {"type": "object"}}}, "required": ["power", "token"]},
    "Deadline": {"type": "object", "properties": {"phase": _STR, "phase_no": _INT,
                                                  "deadline": {"type": ["string", "null"]}},
                 "required": ["phase", "phase_no", "deadline"]},
    "WebhookRequest": {"type": "object", "properties": {"url": {"type": ["string", "null"], "maxLength": 2000}},
                       "required": ["url"], "additionalProperties": False},
    "Webhook": {
        "type": "object",
        "properties": {"webhook_url": {"type": ["string", "null"]}, "attempts_per_delivery": _INT,
                       "deliveries": {"type": "array", "items": {"type": "object", "properties": {
                           "delivery_id": _STR, "phase_no": _INT, "attempts": _INT, "delivered": {"type": "boolean"},
                           "given_up": {"type": "boolean"}, "state": _STR, "last_error": {"type": ["string", "null"]},
                           "attempt_log": {"type": "array", "items": {"type": "object", "properties": {
                               "attempt": _INT, "at": _STR, "status": {"type": ["integer", "null"]}, "outcome": _STR},
                               "required": ["attempt", "at", "outcome"]}}},
                           "required": ["delivery_id", "phase_no", "attempts", "delivered", "given_up",
                                        "attempt_log"]}}},
        "required": ["webhook_url", "deliveries"],
    },
    "WebhookSecret": {"type": "object", "properties": {"webhook_secret": _STR}, "required": ["webhook_secret"],
                      "description": "The new signing secret, shown this once"},
    "SendMessageRequest": {
        "type": "object",
        "properties": {"to": _TO, "phase_no": _PHASE_NO,
                       "text": {"type": "string", "description": "The message: printable text in lines (\\n; tabs "
                                                                 "allowed), at most 2,000 characters (the service's "
                                                                 "limit); any other control character is refused"},
                       "client_id": {"type": "string", "maxLength": 64,
                                     "description": "The sender's own id for this message (1-64 of A-Z a-z 0-9 _ - . "
                                                    ":): a retry with it answers the message kept (200) and sends "
                                                    "nothing; the same id for another message is a 409"}},
        "required": ["to", "text", "phase_no"], "additionalProperties": False,
    },
    "Message": {
        "type": "object",
        "description": "A message, always as data: its text is a JSON string, never markup",
        "properties": {"id": _INT, "phase_no": {"type": "integer", "description": "The phase it was sent in"},
                       "phase": _STR, "sender": {"type": "string", "description": "A power, or \"game master\""},
                       "sender_label": {"type": "string", "description": "The sender seat's label (none when the "
                                                                         "seats are anonymous)"},
                       "to": _TO, "text": _STR, "sent_at": _STR,
                       "client_id": {"type": "string", "description": "To its sender only"}},
        "required": ["id", "phase_no", "phase", "sender", "to", "text", "sent_at"],
    },
    "Messages": {
        "type": "object",
        "properties": {"messages": {"type": "array", "items": {"$ref": "#/components/schemas/Message"}},
                       "more": {"type": "boolean", "description": "More follow: ask again with after=next_after"},
                       "next_after": {"type": "integer", "description": "The last id answered (or `after`)"},
                       "reads": {"enum": ["own", "all"], "description": "own: the messages the caller sent or was "
                                                                          "sent; all: every message (the settings "
                                                                          "show the caller them all)"},
                       "gunboat": {"type": "boolean"}},
        "required": ["messages", "more", "next_after", "reads", "gunboat"],
    },
})


def _json(schema: str) -> dict:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


_PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}


def _responses(ok: str, *errors: int, ok_content: dict | None = None) -> dict:
    text = {400: "Bad input (malformed body or orders)", 404: "Unknown variant", 413: "Body too large",
            415: "Wrong content type", 422: "A state that breaks the rules"}
    out: dict[str, Any] = {"200": {"description": "OK", "content": ok_content or _json(ok)}}
    for code in errors:
        out[str(code)] = {"description": text[code], "content": _PROBLEM}
    return out


def _post(summary: str, request: str, ok: str, *errors: int, extra_request: dict | None = None,
          ok_content: dict | None = None) -> dict:
    content = _json(request)
    content.update(extra_request or {})
    return {"post": {"summary": summary, "requestBody": {"required": True, "content": content},
                     "responses": _responses(ok, 400, 413, 415, *errors, ok_content=ok_content)}}


_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again", "schema": _INT}}


def _hosted_paths() -> dict:
    """The hosted-games endpoints: every one but creation takes `Authorization: Bearer <token>`."""
    auth = {401: "No token", 403: "A token that is not this game's (or not allowed this)", 404: "Unknown game or phase",
            409: "For a phase that is not the current one (named in the answer), or the game is over",
            413: "Over a size limit",
            415: "Wrong content type", 422: "Orders for another phase, or not available for this game",
            429: "Too many requests", 400: "Bad input (a phase-bound write without `phase_no` too)", 507: "The service holds its limit of games",
            503: "The games' database cannot be used now (down, unreachable, restarting, or the connection lost "
                 "and lost again when retried): try again after `Retry-After` seconds"}

    def op(summary: str, ok: dict, codes: tuple[int, ...], body: str | None = None, status: str = "200",
           params: list | None = None) -> dict:
        out: dict[str, Any] = {"summary": summary, "responses": {status: {"description": "OK", "content": ok}}}
        for code in codes:
            out["responses"][str(code)] = {"description": auth[code], "content": _PROBLEM}
            if code in (429, 503):
                out["responses"][str(code)]["headers"] = _RETRY_AFTER
        if body:
            out["requestBody"] = {"required": True, "content": _json(body)}
        if codes and 401 in codes:
            out["security"] = [{"token": []}]
        out["parameters"] = [{"name": "game_id", "in": "path", "required": True, "schema": _STR}] + (params or [])
        return out

    read = (401, 403, 404, 429, 503)
    write = read + (400, 409, 413, 415, 422)
    phase = [{"name": "phase_no", "in": "path", "required": True, "schema": _INT}]
    create = op("Host a new game (tokens shown once)", _json("CreateGameResponse"), (400, 404, 413, 415, 422, 429, 503, 507),
                "CreateGameRequest", "201")
    create.pop("parameters")
    sent = op("Send a message to one, several or all seats in the current phase (refused in a gunboat game)",
              _json("Message"), write, "SendMessageRequest", "201")
    sent["responses"]["200"] = {"description": "A retry with the same client_id: the message kept, nothing sent",
                                "content": _json("Message")}
    return {
        "/v1/games": {"post": create},
        "/v1/games/{game_id}": {"get": op("The game as the caller may see it", _json("HostedGame"), read)},
        "/v1/games/{game_id}/orders": {
            "put": op("Submit or replace one's orders (each judged on arrival)", _json("OwnOrders"), write,
                      "SubmitOrdersRequest"),
            "get": op("Read back one's pending orders", _json("OwnOrders"), read),
            "delete": op("Withdraw one's orders", _json("OwnOrders"), read + (400, 409), params=[
                {"name": "phase_no", "in": "query", "required": True, "schema": _PHASE_NO}]),
        },
        "/v1/games/{game_id}/events": {"get": op(
            "Wait for the game to change (a long poll: answered once what the caller may see of the game changes "
            "from `since`, or after at most 20 s unchanged; at once without `since`)", _json("GameVersion"), read,
            params=[{"name": "since", "in": "query", "required": False, "schema": _STR}])},
        "/v1/games/{game_id}/ready": {"put": op("Mark one's orders ready (or not)", _json("OwnOrders"), write,
                                                "ReadyRequest")},
        "/v1/games/{game_id}/adjudicate": {"post": op("Judge the current phase now (game master)",
                                                      _json("PhaseSummary"), write, "AdjudicateGameRequest")},
        "/v1/games/{game_id}/phases": {"get": op("Every judged phase", {"application/json": {"schema": {
            "type": "array", "items": {"$ref": "#/components/schemas/PhaseSummary"}}}}, read)},
        "/v1/games/{game_id}/phases/{phase_no}": {"get": op("A judged phase: orders, results, positions",
                                                            _json("JudgedPhase"), read, params=phase)},
        "/v1/games/{game_id}/phases/{phase_no}/report": {"get": op(
            "The judge's text report of a phase", {"text/plain": {"schema": _STR}}, read, params=phase)},
        "/v1/games/{game_id}/phases/{phase_no}/picture": {"get": op(
            "The board before a phase with its orders drawn",
            {"image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}},
             "image/svg+xml": {"schema": {"type": "string", "contentMediaType": "image/svg+xml"}}},
            read + (400, 422), params=phase + [
                {"name": "format", "in": "query", "schema": {"enum": ["png", "svg"]}},
                {"name": "width", "in": "query", "schema": {"type": "integer", "minimum": 200, "maximum": 4000}}])},
        "/v1/games/{game_id}/record": {"get": op(
            "The game written out with every judged phase: a saved game of the diplomacy package (mila), FAIR's game "
            "JSON (fair) or a game file (game)",
            {"application/json": {"schema": {"type": "object"}}, "application/yaml": {"schema": _STR}},
            read + (400, 422), params=[{"name": "format", "in": "query",
                                        "schema": {"enum": ["mila", "fair", "game"], "default": "mila"}}])},
        "/v1/games/{game_id}/deadline": {"put": op("Move the current phase's deadline (game master)",
                                                   _json("Deadline"), write, "DeadlineRequest")},
        "/v1/games/{game_id}/webhook": {
            "get": op("The webhook and its deliveries (game master)", _json("Webhook"), read),
            "put": op("Set or remove the webhook (game master)", _json("Webhook"), write, "WebhookRequest"),
        },
        "/v1/games/{game_id}/webhook/secret": {
            "post": op("Rotate the webhook's signing secret (game master)", _json("WebhookSecret"), read)},
        "/v1/games/{game_id}/vote": {"put": op("Vote for a draw, concede, or withdraw one's vote (a seat)",
                                               _json("Vote"), write, "VoteRequest")},
        "/v1/games/{game_id}/end": {"post": op("Declare the game's end (game master)", _json("Ended"), write,
                                               "EndGameRequest")},
        "/v1/games/{game_id}/scores": {"get": op(
            "The scores: the end's, or if the game ended now", _json("Scores"), read + (400, 422),
            params=[{"name": "system", "in": "query", "schema": _STR,
                     "description": "Another scoring system than the game's"}])},
        "/v1/games/{game_id}/pause": {"post": op("Pause the game (game master; capped by the settings)",
                                                 _json("Paused"), write, "PhaseBoundRequest")},
        "/v1/games/{game_id}/resume": {"post": op("Resume a paused game (game master)", _json("Paused"), write,
                                                  "PhaseBoundRequest")},
        "/v1/games/{game_id}/messages": {"post": sent, "get": op(
            "The caller's messages (sent and received; all when the settings say), oldest first, a page at a time",
            _json("Messages"), read + (400,), params=[
                {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0, "default": 0},
                 "description": "Only messages with a greater id (the last page's next_after)"},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100,
                                                            "default": 50}}])},
        "/v1/games/{game_id}/seats/{power}/replace": {"post": op(
            "Hand a seat to a new player or a bot: a new token (game master)", _json("ReplacedSeat"), write,
            "ReplaceSeatRequest", params=[{"name": "power", "in": "path", "required": True, "schema": _STR}])},
    }


def openapi_document() -> dict:
    """The OpenAPI 3.1 description of the API."""
    name_param = {"name": "name", "in": "path", "required": True, "schema": _STR}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Arctic adjudicator API", "version": __version__,
                 "description": "Stateless Diplomacy-variant adjudication: send a game state and orders, get every "
                                "order's outcome with its reason and the next state. Errors are RFC 9457 problems."},
        "paths": {
            "/healthz": {"get": {"summary": "Liveness: the process answers (whatever its database does)",
                                 "responses": _responses("Health")}},
            "/readyz": {"get": {"summary": "Readiness: the games' database answers (503 while it does not)",
                                "responses": {"200": {"description": "Ready", "content": _json("Ready")},
                                              "503": {"description": "The games' database cannot be used now",
                                                      "headers": _RETRY_AFTER, "content": _PROBLEM}}}},
            "/v1/variants": {"get": {"summary": "The variants", "responses": _responses("unused", ok_content={
                "application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/VariantSummary"}}}})}},
            "/v1/variants/{name}": {"get": {"summary": "A variant's board", "parameters": [name_param],
                                            "responses": _responses("Variant", 404)}},
            "/v1/variants/{name}/start": {"get": {"summary": "The opening game state", "parameters": [name_param],
                                                  "responses": _responses("GameState", 404)}},
            "/v1/adjudicate": _post("Adjudicate a phase", "AdjudicateRequest", "AdjudicateResponse", 404, 422),
            "/v1/start": _post("The opening position of a variant or an inline board", "StartRequest", "GameState",
                               404, 422),
            "/v1/orders/parse": _post("Parse orders", "ParseRequest", "ParseResponse", 404, 422),
            "/v1/orders/legal": _post("Every legal order", "LegalRequest", "LegalResponse", 404, 422),
            "/v1/render": _post("Draw the board (and orders)", "RenderRequest", "unused", 404, 422, ok_content={
                "image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}},
                "image/svg+xml": {"schema": {"type": "string", "contentMediaType": "image/svg+xml"}}}),
            "/v1/datc": _post("Run a case file", "DatcRequest", "DatcResponse", 422,
                              extra_request={"text/plain": {"schema": _STR}}),
            **_hosted_paths(),
        },
        "components": {"schemas": SCHEMAS, "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
    }
