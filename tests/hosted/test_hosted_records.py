"""Issue 37: a recorded game begun as a hosted game with its past phases, and a hosted game written out as the
package's saved game, FAIR's game JSON or a game file, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import yaml

from tests.games.diplomacy.records.helpers import game, sorted_lists

PLAYED = ("name", "orders")


def _phases(record):
    return [sorted_lists({**{k: p[k] for k in PLAYED}, **{k: p["state"][k] for k in ("units", "centers")}})
            for p in record["phases"]]


def test_a_recorded_game_is_hosted_with_its_past_phases_and_goes_out_as_it_came(api):
    record = game(4)  # (standard)
    created = api.create(record=record, name="from the package")
    played = [p for p in record["phases"][:-1]]
    assert created["phase_no"] == len(played) + 1 and created["notes"] == []
    gm = created["game_master_token"]
    phases = api.call("get", "/v1/games/{game_id}/phases", gm, game_id=created["id"]).get_json()
    assert [p["trigger"] for p in phases] == ["imported"] * len(played)
    first = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=created["id"], phase_no=1).get_json()
    assert first["orders"]["France"] == record["phases"][0]["orders"]["FRANCE"]
    out = api.call("get", "/v1/games/{game_id}/record", gm, game_id=created["id"])
    assert out.status_code == 200 and out.mimetype == "application/json"
    written = json.loads(out.get_data(as_text=True))
    assert _phases(written)[:-1] == _phases(record)[:-1]
    assert _phases(written)[-1]["units"] == _phases(record)[-1]["units"]
    # play on from the record's position: a seat's orders, the game master judges
    france = created["tokens"]["France"]
    view = api.game(created["id"], france)
    assert view["phase"] and view["phase_no"] == len(played) + 1
    api.judge(created["id"], gm)
    assert api.phase_no(created["id"], gm) == len(played) + 2
    assert len(json.loads(api.call("get", "/v1/games/{game_id}/record", gm,
                                   game_id=created["id"]).get_data(as_text=True))["phases"]) == len(played) + 2
    fair = api.call("get", "/v1/games/{game_id}/record", france, game_id=created["id"], query="?format=fair")
    assert json.loads(fair.get_data(as_text=True))["version"] == "1.0"
    as_file = api.call("get", "/v1/games/{game_id}/record", gm, game_id=created["id"], query="?format=game")
    assert as_file.mimetype == "application/yaml"
    assert len(yaml.safe_load(as_file.get_data(as_text=True))["history"]) == len(played) + 1


def test_a_record_that_is_not_one_is_refused_with_where(api):
    broken = game(4)
    broken["phases"][2]["state"]["units"]["FRANCE"] = ["A ATLANTIS"]
    response = api.call("post", "/v1/games", json={"record": broken})
    assert response.status_code == 400
    problem = response.get_json()
    assert problem["pointer"] == "/record" and "'ATLANTIS' is not a place" in problem["detail"]
    both = api.call("post", "/v1/games", json={"record": game(4), "variant": "standard"})
    assert both.status_code == 400 and "leave out variant" in both.get_json()["detail"]


def test_a_hosted_arctic_game_cannot_be_written_as_a_package_game_but_as_a_game_file(api):
    created = api.create(variant="arctic")
    gm = created["game_master_token"]
    refused = api.call("get", "/v1/games/{game_id}/record", gm, game_id=created["id"])
    assert refused.status_code == 422 and "no map in the diplomacy package" in refused.get_json()["detail"]
    unknown = api.call("get", "/v1/games/{game_id}/record", gm, game_id=created["id"], query="?format=xml")
    assert unknown.status_code == 400
    assert api.call("get", "/v1/games/{game_id}/record", gm, game_id=created["id"],
                    query="?format=game").status_code == 200
