"""A bounded property-based fuzz of the OpenAPI document: request bodies drawn from the request schemas (and
mutations of valid ones) never get a 5xx, and every response matches the document."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import create_app
from api.schemas import SCHEMAS
from tests.api_helpers import DOC, check_response

# The documented paths include game creation: its games go to a database of the fuzz's own, not to the
# default file in the working directory.
_FOLDER = tempfile.mkdtemp(prefix="api-fuzz-")
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
_DATABASE = Path(_FOLDER) / "games.sqlite3"
APP = create_app({"ADJUDICATOR_DATABASE_URL": f"sqlite:///{_DATABASE}"})
CLIENT = APP.test_client()
START = CLIENT.get("/v1/variants/standard/start").get_json()


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                     max_leaves=6)


def from_schema(schema: dict) -> st.SearchStrategy:
    """Values valid for the subset of JSON Schema the API's schemas use (object, array, string, integer,
    boolean, null, enum, oneOf, $ref, properties/required/additionalProperties, minimum/maximum)."""
    if "$ref" in schema:
        return st.deferred(lambda: from_schema(SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "oneOf" in schema:
        return st.one_of([from_schema(s) for s in schema["oneOf"]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}) for k in kind])
    if kind == "string":
        return st.text(max_size=60)
    if kind == "integer":
        return st.integers(schema.get("minimum", -1000), schema.get("maximum", 5000))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {})) if schema.get("items") else _JSON, max_size=3)
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        fixed = st.fixed_dictionaries({k: from_schema(v) for k, v in props.items() if k in required},
                                      optional={k: from_schema(v) for k, v in props.items() if k not in required})
        extra = schema.get("additionalProperties", True)
        if extra is False:
            return fixed
        values = from_schema(extra) if isinstance(extra, dict) else _JSON
        more = st.dictionaries(st.text(max_size=8).filter(lambda k: k not in props), values, max_size=2)
        return st.tuples(fixed, more).map(lambda pair: {**pair[1], **pair[0]})
    return _JSON


def _resolved(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


ENDPOINTS = [("/v1/adjudicate", "AdjudicateRequest"), ("/v1/orders/parse", "ParseRequest"),
             ("/v1/orders/legal", "LegalRequest"), ("/v1/datc", "DatcRequest"), ("/v1/render", "RenderRequest")]

_unit = st.sampled_from(["A par", "F bre", "A mar", "F lon", "A xyz", "F stp", "F stp/nc", "A nth", "", "A"])
_state = st.fixed_dictionaries({
    "variant": st.sampled_from(["standard", "arctic", "narnia", ""]),
    "phase": st.one_of(st.just(START["phase"]), st.text(max_size=20),
                       st.fixed_dictionaries({"season": st.sampled_from(["Spring", "Fall", "Winter", "x"]),
                                              "year": st.integers(-5, 3000),
                                              "type": st.sampled_from(["Movement", "Retreat", "Adjustment", "q"])})),
    "units": st.dictionaries(st.sampled_from(["France", "England", "Narnia"]), st.lists(_unit, max_size=4), max_size=3),
    "centres": st.dictionaries(st.sampled_from(["France", "Russia"]), st.lists(st.sampled_from(["par", "nth", "zzz"]),
                                                                                  max_size=3), max_size=2),
})
_orders = st.one_of(st.text(max_size=80), st.dictionaries(st.sampled_from(["France", "England", "Narnia"]),
                                                          st.lists(st.text(max_size=30), max_size=3), max_size=2))


@pytest.mark.parametrize("path, schema", ENDPOINTS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_schema_generated_bodies_never_5xx(path, schema, data):
    body = data.draw(from_schema(_resolved(schema)))
    r = CLIENT.post(path, json=body)
    assert r.status_code < 500, r.get_data(as_text=True)
    check_response(path, "post", r)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(state=_state, orders=_orders, lenient=st.booleans())
def test_plausible_but_broken_adjudications_never_5xx(state, orders, lenient):
    r = CLIENT.post("/v1/adjudicate", json={"state": state, "orders": orders, "lenient": lenient})
    assert r.status_code < 500, r.get_data(as_text=True)
    check_response("/v1/adjudicate", "post", r)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.binary(max_size=200), ctype=st.sampled_from(["application/json", "text/plain", "application/xml", ""]))
def test_arbitrary_bytes_never_5xx(raw, ctype):
    for path, _ in ENDPOINTS:
        r = CLIENT.post(path, data=raw, content_type=ctype or None)
        assert r.status_code < 500
        check_response(path, "post", r)


def test_every_documented_path_exists():
    for path, ops in DOC["paths"].items():
        concrete = path.replace("{name}", "standard")
        for method in ops:
            r = CLIENT.open(concrete, method=method.upper(), json={} if method == "post" else None)
            assert r.status_code != 404 or "{name}" in path, (method, path)
