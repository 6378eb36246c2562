"""Issue 36: a position whose game has ended is not judged (the stateless judge and a new hosted game), and a
judgement that reaches the end says so."""

from __future__ import annotations

from tests.hosted.helpers import make_api

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
ENDED = {**make_api("sqlite://").client.get("/v1/variants/standard/start").get_json(),
         "end": {"kind": "draw", "powers": ["England", "France"], "year": 1900, "first_year": 1900,
                 "board": {"centres": 34, "victory": 18},
                 "centres": {p: 4 if p == "Russia" else 3 for p in POWERS}}}
SOLO_NEXT = {"variant": "standard", "phase": "Fall 1901 Movement",
             "centres": {"France": ["Par", "Bre", "Mar", "Spa", "Por", "Hol", "Mun", "Kie", "Ber", "Den", "Swe", "Nwy",
                                    "Lon", "Lvp", "Edi", "Tun", "Nap"]},
             "units": {"France": ["A Pic"], "Germany": ["A War"]}}


def test_an_ended_position_is_not_judged_by_the_stateless_judge():
    api = make_api("sqlite://")
    response = api.client.post("/v1/adjudicate", json={"state": ENDED, "orders": "England: F Lon - Nth"})
    problem = response.get_json()
    assert response.status_code == 409 and problem["pointer"] == "/state/end", problem
    assert "a draw of England, France" in problem["detail"]


def test_a_hosted_game_is_not_created_from_an_ended_position(tmp_path):
    api = make_api(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    response = api.client.post("/v1/games", json={"variant": "standard", "state": ENDED})
    assert response.status_code == 409, response.get_json()


def test_the_judgement_that_reaches_a_solo_returns_its_end():
    api = make_api("sqlite://")
    data = api.client.post("/v1/adjudicate", json={"state": SOLO_NEXT, "orders": "France: A Pic - Bel"}).get_json()
    assert data["winner"] == "France" and data["end"]["kind"] == "solo" and data["end"]["powers"] == ["France"]
    assert data["end"]["centres"]["France"] == 18
    plain = api.client.post("/v1/adjudicate", json={"state": SOLO_NEXT, "orders": "France: A Pic H"}).get_json()
    assert plain["end"] is None
