"""A hosted seat's orders sent as text are read as `/v1/adjudicate` reads a sheet (issue 35): headers, comments
and blank lines are no orders, each status names the text's own line, and a line under another power's header
is refused, never read as the seat's."""

from __future__ import annotations

SHEET = "# my orders\nEngland:\nF lon - nth  # to the north\n\nEngland: F edi - nwg\nA lvp - yorr\n"


def _game(api):
    game = api.create(variant="standard")
    return game["id"], game["tokens"]["England"]


def test_a_text_is_read_as_a_sheet_and_its_statuses_name_its_lines(api) -> None:
    game_id, token = _game(api)
    answer = api.submit(game_id, token, SHEET)
    assert [(s["line"], s["order"], s["status"]) for s in answer["orders"]] == [
        (3, "F lon - nth", "ok"), (5, "England: F edi - nwg", "ok"), (6, "A lvp - yorr", "unreadable")]
    assert answer["orders"][2]["suggestions"] == ["Yorkshire (yor)"]


def test_the_text_and_the_list_of_its_orders_give_the_same_statuses(api) -> None:
    game_id, token = _game(api)
    from_text = api.submit(game_id, token, SHEET)["orders"]
    from_list = api.submit(game_id, token, [s["order"] for s in from_text])["orders"]
    assert [{**s, "line": None} for s in from_text] == [{**s, "line": None} for s in from_list]


def test_what_adjudicate_reads_as_orders_the_hosted_text_reads_as_orders(api) -> None:
    game_id, token = _game(api)
    hosted = api.submit(game_id, token, SHEET)["orders"]
    stateless = api.client.post("/v1/orders/parse", json={"variant": "standard", "orders": SHEET}).get_json()
    assert sorted(s["line"] for s in hosted) == sorted(
        [o["line"] for o in stateless["orders"]] + [p["line"] for p in stateless["sheet_problems"]])


def test_a_line_under_another_powers_header_is_refused_naming_its_line(api) -> None:
    game_id, token = _game(api)
    answer = api.submit(game_id, token, "France:\nA par - bur\n", status=422)
    assert "line 2 is under the 'France' header on line 1" in answer["detail"]
    assert api.client.get(f"/v1/games/{game_id}/orders", headers={"Authorization": f"Bearer {token}"}
                          ).get_json()["orders"] == []


def test_a_text_too_long_to_read_is_refused_not_taken_as_no_orders(api) -> None:
    game_id, token = _game(api)
    answer = api.submit(game_id, token, "\n" * 10_001 + "F lon - nth\n", status=422)
    assert "at most 10,000 are read" in answer["detail"]
