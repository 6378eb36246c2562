"""The HTTP API through Flask's test client: every endpoint, every error status, responses against OpenAPI."""

from __future__ import annotations

import pytest

from api import create_app
from tests.api_helpers import DOC, check_response


@pytest.fixture(scope="module")
def client():
    return create_app({"MAX_CONTENT_LENGTH": 200_000}).test_client()


@pytest.fixture(scope="module")
def standard_start(client):
    return client.get("/v1/variants/standard/start").get_json()


@pytest.fixture(scope="module")
def arctic_start(client):
    return client.get("/v1/variants/arctic/start").get_json()


def test_health_and_openapi(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.get_json()["status"] == "ok"
    check_response("/healthz", "get", r)
    doc = client.get("/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1") and doc == DOC
    assert set(doc["paths"]) >= {"/v1/adjudicate", "/v1/orders/parse", "/v1/orders/legal", "/v1/datc",
                                 "/v1/variants", "/v1/variants/{name}", "/v1/variants/{name}/start"}


def test_variants(client):
    r = client.get("/v1/variants")
    check_response("/v1/variants", "get", r)
    names = {v["name"] for v in r.get_json()}
    assert {"standard", "arctic"} <= names
    r = client.get("/v1/variants/arctic")
    check_response("/v1/variants/{name}", "get", r)
    board = r.get_json()
    assert len(board["spaces"]) == 61 and len(board["borders"]) == 172
    kar = next(s for s in board["spaces"] if s["id"] == "Kar")
    assert kar["terrain"] == {"Spring": "sea", "Summer": "sea", "Fall": "sea", "Winter": "ice"}
    assert {p["name"] for p in board["powers"]} == {"Russia", "Norway", "Canada", "Denmark", "USA"}
    r = client.get("/v1/variants/ARCTIC/start")
    check_response("/v1/variants/{name}/start", "get", r)
    assert r.get_json()["phase"] == {"season": "Fall", "year": 2010, "type": "Movement"}


def test_unknown_variant_is_404(client):
    for path in ("/v1/variants/narnia", "/v1/variants/narnia/start"):
        r = client.get(path)
        assert r.status_code == 404 and r.content_type == "application/problem+json"
        assert "narnia" in r.get_json()["detail"]


def test_adjudicate_with_text_and_with_lists(client, standard_start):
    r = client.post("/v1/adjudicate", json={"state": standard_start, "orders":
                    "France:\n  A par - bur\nGermany: A mun - bur\n"})
    check_response("/v1/adjudicate", "post", r)
    data = r.get_json()
    assert r.status_code == 200
    bounce = next(o for o in data["orders"] if o["order"] == "A par - bur")
    assert bounce["status"] == "fails" and "Germany A mun" in bounce["reason"]
    assert data["next_phase"]["name"] == "Fall 1901 Movement"
    assert data["next_state"]["phase"] == {"season": "Fall", "year": 1901, "type": "Movement"}
    r = client.post("/v1/adjudicate", json={"state": standard_start, "orders": {"England": ["F lon - nth"]}})
    assert r.status_code == 200 and "F nth" in r.get_json()["next_state"]["units"]["England"]


def test_unreadable_orders_are_refused_with_pointers_when_not_lenient(client, standard_start):
    r = client.post("/v1/adjudicate", json={"state": standard_start, "lenient": False,
                                             "orders": {"France": ["A par - bur", "A mxr H"]}})
    assert r.status_code == 400 and r.content_type == "application/problem+json"
    check_response("/v1/adjudicate", "post", r)
    body = r.get_json()
    assert body["pointer"] == "/orders/France/1" and body["errors"][0]["column"] == 3
    assert any("Marseilles" in s for s in body["errors"][0]["suggestions"])
    r = client.post("/v1/adjudicate", json={"state": standard_start, "lenient": False,
                                             "orders": "France: A par - bur\nhello there\n"})
    assert r.status_code == 400 and r.get_json()["errors"][0]["line"] == 2


def test_unreadable_lines_are_reported_and_the_rest_judged_by_default(client, standard_start):
    r = client.post("/v1/adjudicate", json={"state": standard_start, "orders": "France: A par - bur\nhello there\n"})
    assert r.status_code == 200 and r.get_json()["sheet_problems"][0]["line"] == 2
    assert "A bur" in r.get_json()["next_state"]["units"]["France"]


def test_history_can_be_left_out(client, standard_start):
    body = {"state": standard_start, "orders": "France: A par - bur"}
    assert len(client.post("/v1/adjudicate", json=body).get_json()["next_state"]["history"]) == 1
    r = client.post("/v1/adjudicate", json={**body, "history": False})
    check_response("/v1/adjudicate", "post", r)
    assert r.status_code == 200 and "history" not in r.get_json()["next_state"]


def test_a_sheet_for_another_phase_is_refused_naming_the_phase(client, standard_start):
    r = client.post("/v1/adjudicate", json={"state": standard_start, "orders": "France: Build A Par\nGermany: waive"})
    assert r.status_code == 422 and "Spring 1901 Movement" in r.get_json()["detail"]
    assert "adjustment orders" in r.get_json()["detail"]


def test_states_that_break_the_rules_are_422(client, standard_start):
    bad = {**standard_start, "units": {"France": ["A par", "F par"]}}
    r = client.post("/v1/adjudicate", json={"state": bad})
    assert r.status_code == 422 and r.get_json()["pointer"] == "/state/units/France/1"
    check_response("/v1/adjudicate", "post", r)
    bad = {**standard_start, "units": {"France": ["F par"]}}
    assert client.post("/v1/adjudicate", json={"state": bad}).status_code == 422
    bad = {**standard_start, "phase": {"season": "Sprung", "year": 1901, "type": "Movement"}}
    r = client.post("/v1/adjudicate", json={"state": bad})
    assert r.status_code == 422 and r.get_json()["pointer"] == "/state/phase/season"
    r = client.post("/v1/adjudicate", json={"state": {**standard_start, "variant": "narnia"}})
    assert r.status_code == 404 and r.get_json()["pointer"] == "/state/variant"


def test_malformed_bodies(client, standard_start):
    r = client.post("/v1/adjudicate", data="{not json", content_type="application/json")
    assert r.status_code == 400 and "not valid JSON" in r.get_json()["detail"]
    r = client.post("/v1/adjudicate", json={"orders": "x"})
    assert r.status_code == 400 and "state" in r.get_json()["detail"]
    r = client.post("/v1/adjudicate", json={"state": standard_start, "extra": 1})
    assert r.status_code == 400
    r = client.post("/v1/adjudicate", data="hello", content_type="text/plain")
    assert r.status_code == 415
    check_response("/v1/adjudicate", "post", r)
    r = client.get("/v1/adjudicate")
    assert r.status_code == 405 and "POST" in r.headers["Allow"]
    r = client.post("/v1/adjudicate", data="x" * 300_000, content_type="application/json")
    assert r.status_code == 413 and r.content_type == "application/problem+json"


def test_parse(client):
    r = client.post("/v1/orders/parse", json={"variant": "arctic", "orders": "Russia: A Arc - Ura\nNorway: F Nwg S F Tro - Bar"})
    check_response("/v1/orders/parse", "post", r)
    orders = r.get_json()["orders"]
    assert orders[0]["kind"] == "move" and orders[0]["destination"] == "Ura"
    assert orders[1]["target"] == {"type": "F", "location": "Tro"}
    r = client.post("/v1/orders/parse", json={"variant": "arctic", "orders": {"Norway": ["F Nwg - Barnets"]}})
    assert r.status_code == 200 and r.get_json()["orders"] == []
    assert r.get_json()["sheet_problems"][0]["column"] == 9
    r = client.post("/v1/orders/parse", json={"variant": "arctic", "lenient": False,
                                               "orders": {"Norway": ["F Nwg - Barnets"]}})
    assert r.status_code == 400
    err = r.get_json()["errors"][0]
    assert err["column"] == 9 and "Barents Sea" in err["suggestions"][0]


def test_legal(client, arctic_start):
    r = client.post("/v1/orders/legal", json={"state": arctic_start, "power": "Denmark"})
    check_response("/v1/orders/legal", "post", r)
    data = r.get_json()
    assert list(data["powers"]) == ["Denmark"] and "A Nrd - QEI" in data["powers"]["Denmark"]["A Nrd"]
    r = client.post("/v1/orders/legal", json={"state": arctic_start, "power": "Narnia"})
    assert r.status_code == 400


def test_legal_orders_with_their_parts_are_the_same_lists_as_data(client):
    """`parts: true` (the play page picks orders on the map by them): each listed order's unit, target,
    destination and convoy path, in the lists' order; a convoyed move under 4.A.6 `required` names its seas."""
    start = client.get("/v1/variants/standard/start").get_json()
    start["units"] = {"England": ["F nth", "A yor", "F stp/nc"], "France": ["A bel"]}
    r = client.post("/v1/orders/legal", json={"state": start, "power": "England", "parts": True,
                                              "rules": "4.A.6: required"})
    check_response("/v1/orders/legal", "post", r)
    data = r.get_json()
    parts = data["parts"]["England"]
    assert {k: [p["order"] for p in v] for k, v in parts.items()} == data["powers"]["England"]
    by_order = {p["order"]: p for v in parts.values() for p in v}
    convoyed = next(p for p in parts["A yor"] if p["via_convoy"] and p["destination"] == "nwy")
    assert convoyed["path"] == ["nth"] and convoyed["kind"] == "move" and convoyed["unit"] == {"type": "A",
                                                                                                "location": "yor"}
    convoy = by_order["F nth C A yor - nwy"]
    assert convoy["kind"] == "convoy" and convoy["target"] == {"type": "A", "location": "yor"}
    assert convoy["destination"] == "nwy"
    assert by_order["F stp/nc - bar"]["unit"]["location"] == "stp/nc"
    assert "parts" not in client.post("/v1/orders/legal", json={"state": start, "power": "England"}).get_json()


def test_datc(client):
    text = "VARIANT_ALL Standard\nCASE one\nPRESTATE\n  England: A lvp\nORDERS\n  England: A lvp-edi\nPOSTSTATE\n  England: A edi\nEND\n"
    r = client.post("/v1/datc", json={"text": text})
    check_response("/v1/datc", "post", r)
    assert r.get_json()["summary"] == "1 passed, 0 failed"
    r = client.post("/v1/datc", data=text.replace("A edi\n", "A yor\n"), content_type="text/plain")
    assert r.get_json()["failed"] == 1 and "A yor" in r.get_json()["cases"][0]["problems"][0]
    r = client.post("/v1/datc", data="VARIANT_ALL Standard\nCASE x\nBOGUS\n", content_type="text/plain")
    assert r.status_code == 400 and r.get_json()["line"] == 3


def test_render(client, arctic_start, standard_start):
    r = client.post("/v1/render", json={"state": arctic_start, "format": "svg"})
    check_response("/v1/render", "post", r)
    assert r.status_code == 200 and r.mimetype == "image/svg+xml" and 'id="space-Kar"' in r.get_data(as_text=True)
    r = client.post("/v1/render", json={"state": standard_start, "orders": {"France": ["A par - bur"]}, "width": 600})
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data.startswith(b"\x89PNG")
    r = client.post("/v1/render", json={"state": standard_start, "format": "gif"})
    assert r.status_code == 400


@pytest.mark.parametrize("variant, orders, kind", [
    ("arctic2019", "Russia: move 1 ship from KOL to BAR", "Move"),
    ("arctica", "Remi: migrate fish from S3", "Migration"),
    ("arctic-race", "Red: 5 move", "Turn"),
])
def test_parse_other_games_gives_structured_steps(client, variant, orders, kind):
    r = client.post("/v1/orders/parse", json={"variant": variant, "orders": orders})
    check_response("/v1/orders/parse", "post", r)
    step = r.get_json()["orders"][0]
    assert r.status_code == 200 and step["kind"] == kind and step["line"] == 1
