"""The other three games hosted from their set-up (issue 38, item 7): Arctic Race's tiles shuffled when the game
is made, so the game master's set-up names the players and the first player only, and a player who sends a turn
before it is told the set-up is the game master's; 2019: The ARCTIC and Arctica, whose turns may take several
judged phases, name each phase apart ("..., continued (phase 2)"), so no judgement reads "X is judged; next: X"."""

from __future__ import annotations


def test_arctic_race_is_shuffled_when_made_and_set_up_by_players_and_start_alone(api):
    created = api.create(variant="arctic-race", seats=["Red", "Blue"])
    gid, gm, tokens = created["id"], created["game_master_token"], created["tokens"]
    state = api.game(gid, gm)["state"]
    assert state["phase"] == "setup" and sorted(state["tiles"]) == [f"T{n:02}" for n in range(1, 31)]
    early = api.call("put", "/v1/games/{game_id}/orders", tokens["Red"], game_id=gid,
                     json={"orders": ["5 move, roll 3"], "phase_no": 1})
    detail = early.get_json()["detail"]
    assert early.status_code == 422 and "which the game master sends" in detail and "send `players" not in detail
    steps = api.submit(gid, gm, ["players Red, Blue", "start Red"])
    assert [o["status"] for o in steps["orders"]] == ["ok", "ok"], steps
    judged = api.call("post", "/v1/games/{game_id}/adjudicate", gm, game_id=gid, json={"phase_no": 1}).get_json()
    assert judged["next_phase"] == "round 1, Red to play"
    assert api.game(gid, gm)["state"]["phase"] == "racing"


def test_two_games_made_apart_are_shuffled_apart(api):
    tiles = [api.game(c["id"], c["game_master_token"])["state"]["tiles"]
             for c in (api.create(variant="arctic-race", seats=["Red", "Blue"]) for _ in range(3))]
    assert len({tuple(t) for t in tiles}) == 3


def test_a_turn_judged_in_several_phases_names_each_phase_apart(api):
    for variant, step, next_turn in (("arctic2019", "end of turn", "turn 2, law A"),
                                     ("arctica", "next turn", "round 1, turn 2, Joelle is the Leader")):
        created = api.create(variant=variant)
        gid, gm = created["id"], created["game_master_token"]
        first = api.call("post", "/v1/games/{game_id}/adjudicate", gm, game_id=gid, json={"phase_no": 1}).get_json()
        assert first["next_phase"] == f"{first['phase']}, continued (phase 2)" and first["next_phase"] != first["phase"]
        assert api.game(gid, gm)["phase"] == first["next_phase"]
        api.submit(gid, gm, [step])
        second = api.call("post", "/v1/games/{game_id}/adjudicate", gm, game_id=gid, json={"phase_no": 2}).get_json()
        assert second["phase"] == first["next_phase"] and second["next_phase"] == next_turn, second


def test_the_scores_of_a_game_at_its_set_up_are_refused_with_the_reason_never_a_500(api):
    created = api.create(variant="arctic-race", seats=["Red", "Blue"])
    answer = api.call("get", "/v1/games/{game_id}/scores", created["game_master_token"], game_id=created["id"])
    assert answer.status_code == 422 and "set-up" in answer.get_json()["detail"], answer.get_json()
