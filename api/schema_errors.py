"""A request that breaks its JSON schema, told in words: which field, what was expected, what came (as JSON, cut
short), never the validator's Python repr (`{'France': 'A Par - Bur'} is not valid under any of the given
schemas`)."""

from __future__ import annotations

import json
import re
from typing import Any

from jsonschema.exceptions import ValidationError

from adjudicator.grammar_tools import or_list

_SHOWN = 60  # characters of a value quoted back
_TYPES = {"string": ("a string", "strings"), "integer": ("a whole number", "whole numbers"),
          "number": ("a number", "numbers"), "boolean": ("true or false", "true or false values"),
          "object": ("an object", "objects"), "array": ("a list", "lists"), "null": ("null", "nulls")}


def pointer_of(error: ValidationError) -> str:
    """The JSON pointer (RFC 6901) of the field the error is about (`` for the whole body)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path)


def in_words(error: ValidationError, components: dict[str, Any]) -> str:
    """`/orders/France: expected a list of strings, but came a string: "A Par - Bur"` (`components`: the
    schemas a `$ref` names)."""
    where = pointer_of(error) or "the body"
    return f"{where}: {_what_is_wrong(error, components)}"


def _what_is_wrong(error: ValidationError, components: dict[str, Any]) -> str:
    kind, value = error.validator, error.instance
    expected: Any = error.validator_value  # (the schema's value for that keyword: any JSON)
    if kind in ("oneOf", "anyOf"):
        if all(isinstance(s, dict) and set(s) == {"required"} for s in expected):  # `variant` or `board`
            return f"the field {_or([f'`{n}`' for s in expected for n in s['required']])} is missing"
        options = [_describe(s, components) for s in expected]
        deepest = max(error.context or [], key=lambda e: len(e.absolute_path), default=None)
        why = ""
        if deepest is not None and len(deepest.absolute_path) > len(error.absolute_path):
            why = f"; {pointer_of(deepest)}: {_what_is_wrong(deepest, components)}"
        return f"expected {_or(options)}, but came {_shown(value)}{why}"
    if kind == "required":
        missing = [name for name in expected if isinstance(value, dict) and name not in value]
        return f"the field {_or([f'`{m}`' for m in missing])} is missing" if len(missing) == 1 else \
            f"the fields {', '.join(f'`{m}`' for m in missing)} are missing"
    if kind == "additionalProperties":
        schema: Any = error.schema  # (a mapping here: it has `additionalProperties`)
        known = sorted(schema.get("properties", {}))
        extra = sorted(k for k in value if k not in known) if isinstance(value, dict) else []
        return (f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(f'`{k}`' for k in extra)}; "
                f"the fields are {', '.join(f'`{k}`' for k in known)}")
    if kind == "type":
        return f"expected {_describe(error.schema, components)}, but came {_shown(value)}"
    if kind == "enum":
        return f"expected one of {', '.join(json.dumps(v) for v in expected)}, but came {_shown(value)}"
    limits = {"minimum": "at least {}", "maximum": "at most {}", "minLength": "at least {} characters",
              "maxLength": "at most {} characters", "minItems": "at least {} items", "maxItems": "at most {} items"}
    if kind in limits:
        return f"expected {limits[kind].format(expected)}, but came {_shown(value)}"
    return f"{_shown(value)} is not accepted here (the schema's `{kind}` is {json.dumps(expected)[:_SHOWN]})"


def _describe(schema: Any, components: dict[str, Any], plural: bool = False) -> str:
    """What a schema expects, as a noun phrase ("a list of strings", "an order object")."""
    if not isinstance(schema, dict):
        return "anything" if schema is True else "nothing"
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        words = re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()  # OrderObject -> order object
        return f"{words}s" if plural else f"{'an' if words[0] in 'aeiou' else 'a'} {words}"
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return _or([_describe(s, components, plural) for s in schema[key]])
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return _or([_describe({**schema, "type": k}, components, plural) for k in kinds])
    if kinds == "array" and "items" in schema:
        return f"{'lists' if plural else 'a list'} of {_describe(schema['items'], components, plural=True)}"
    if kinds == "object" and isinstance(schema.get("additionalProperties"), dict):
        values = _describe(schema["additionalProperties"], components, plural=True)
        return f"{'objects' if plural else 'an object'} mapping names to {values}"
    if kinds in _TYPES:
        return _TYPES[kinds][1 if plural else 0]
    if schema.get("required"):
        return f"an object with {_or([f'`{r}`' for r in schema['required']])}"
    return "a value"


def _shown(value: Any) -> str:
    """A value as it came, in JSON, with what kind of value it is."""
    kind = ("null" if value is None else "boolean" if isinstance(value, bool) else "integer" if isinstance(value, int)
            else "number" if isinstance(value, float) else "string" if isinstance(value, str)
            else "array" if isinstance(value, list) else "object")
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > _SHOWN:
        text = text[:_SHOWN] + "..."
    return f"{_TYPES[kind][0]}: {text}" if kind != "null" else "null"


def _or(options: list[str]) -> str:
    """`a, b or c`, each once."""
    return or_list(list(dict.fromkeys(options)))
