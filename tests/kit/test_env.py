"""The research environment (issue 37, adjudicator/env.py and adjudicator/games/diplomacy/env.py): PettingZoo's own
API test on several boards, observations inside their space with the mask over each unit's legal orders, actions
as indices, order values or order objects (an illegal one refused with a clear error or judged with its reason),
a game to its end with the scoring system's rewards, a seeded game played twice alike, 1,000 random phases in a
few seconds, and the batch judge giving what judging one position at a time gives, in this process or in two."""

from __future__ import annotations

import random
import sys
import time

import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

from adjudicator.batch import BatchError, BatchJudge  # noqa: E402
from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.env import judge_many, parallel_env  # noqa: E402
from adjudicator.extras import MissingExtra  # noqa: E402
from adjudicator.game import NotAvailable, rules_of  # noqa: E402
from adjudicator.games.diplomacy.env import EnvOptionError, IllegalAction  # noqa: E402
from adjudicator.games.diplomacy.orders.model import Hold, Move, UnitRef  # noqa: E402
from adjudicator.games.diplomacy.phase import adjudicate  # noqa: E402
from adjudicator.games.diplomacy.state_file import state_to_data  # noqa: E402
from adjudicator.scoring import choose  # noqa: E402


def random_actions(env, infos, rng):
    """A random policy: one random legal order (by its index) for every slot of every agent."""
    return {a: [rng.randrange(len(orders)) for orders in infos[a]["legal_orders"]] for a in env.agents}


@pytest.mark.parametrize("variant,years", [("standard", 2), ("arctic", 2), ("pure", 6)])
def test_pettingzoo_parallel_api_test(variant, years):
    env = parallel_env(variant, max_years=years)
    with pytest.warns(UserWarning, match="reset ignores the options options"):  # (the test's own unknown option)
        pettingzoo_test.parallel_api_test(env, num_cycles=1000)


def test_observations_are_in_their_space_and_the_mask_marks_the_legal_orders(standard):
    env = parallel_env(standard, max_years=2)
    observations, infos = env.reset(seed=3)
    rng = random.Random(3)
    kinds = set()
    while env.agents:
        rules = rules_of(env.board)
        texts = rules.legal_orders(env.board, env.position, None)["powers"]
        for agent in env.agents:
            obs, info = observations[agent], infos[agent]
            assert env.observation_space(agent).contains(obs)
            assert obs["phase"] == str(env.position.phase) == info["phase"]
            kinds.add(obs["kind"])
            for slot, orders in enumerate(info["legal_orders"]):
                assert all(o.power == agent for o in orders)
                assert obs["action_mask"][slot].sum() == len(orders) and obs["action_mask"][slot][:len(orders)].all()
            assert not any(row.any() for row in obs["action_mask"][len(info["legal_orders"]):])
            if obs["kind"] != "adjustment":  # the lists `adjudicator legal` prints, as order values
                assert [[o.describe() for o in orders] for orders in info["legal_orders"]] == list(texts[agent].values())
                assert info["slots"] == list(texts[agent])
            counts = obs["counts"][agent]
            assert counts == {"units": len(env.position.units_of(agent)), "centres": len(env.position.centres_of(agent))}
        observations, _, _, _, infos = env.step(random_actions(env, infos, rng))
    assert kinds == {"movement", "adjustment"} or kinds == {"movement", "retreat", "adjustment"}


def test_opening_observation(standard):
    obs, infos = parallel_env(standard).reset()
    france = obs["France"]
    assert (france["phase"], france["season"], france["year"], france["kind"]) == (
        "Spring 1901 Movement", "Spring", 1901, "movement")
    assert {"power": "Russia", "type": "F", "location": "stp/sc"} in france["units"]
    assert france["centres"]["Russia"] == ("mos", "sev", "stp", "war")
    assert france["counts"]["Russia"] == {"units": 4, "centres": 4} and france["dislodged"] == ()
    assert infos["France"]["slots"] == ["F bre", "A mar", "A par"]
    assert Hold(UnitRef("A", "par", None, "France"), power="France") in infos["France"]["legal_orders"][2]


def test_retreats_and_builds_have_their_slots(standard):
    rules = rules_of(standard)
    state = rules.state_from_data(standard, {
        "phase": {"season": "Spring", "year": 1901, "type": "Movement"},
        "units": {"France": ["A bur", "A bel"], "Germany": ["A mun", "A ruh"], "England": ["F lon"]}}, None)
    env = parallel_env(standard, position=state)
    obs, infos = env.reset()
    bel, bur = infos["France"]["legal_orders"]
    attack = [next(o for o in bur if isinstance(o, Move) and o.dest == "ruh"),
              next(o for o in bel if o.describe() == "A bel S A bur - ruh")]
    obs, _, _, _, infos = env.step({"France": attack, "Germany": []})
    assert obs["Germany"]["kind"] == "retreat"
    assert obs["Germany"]["dislodged"] == ({"power": "Germany", "type": "A", "location": "ruh",
                                            "retreats": ("hol", "kie")},)
    assert infos["Germany"]["slots"] == ["A ruh"] and infos["France"]["slots"] == []
    assert [o.describe() for o in infos["Germany"]["legal_orders"][0]] == [
        "A ruh R hol", "A ruh R kie", "Disband A ruh"]
    obs, _, _, _, infos = env.step({"Germany": [2]})  # disbanded
    obs, _, _, _, infos = env.step({})  # Fall: nothing ordered; France took Belgium
    assert obs["France"]["kind"] == "adjustment" and obs["France"]["adjustments"]["France"] == 2
    assert infos["France"]["slots"] == ["build 1", "build 2"]
    builds = [o.describe() for o in infos["France"]["legal_orders"][0]]
    assert builds[-1] == "Waive" and "Build F bre" in builds and "Build A par" in builds


def test_builds_are_as_many_as_the_sites_and_removals_as_due(standard):
    rules = rules_of(standard)
    state = rules.state_from_data(standard, {
        "phase": {"season": "Fall", "year": 1901, "type": "Adjustment"},
        "centres": {"France": ["bre", "mar", "par", "bel", "hol", "spa"], "Germany": ["mun"]},
        "units": {"France": ["A par", "A bel"], "Germany": ["A mun", "A ruh", "A kie"]}}, None)
    obs, infos = parallel_env(standard, position=state).reset()
    assert obs["France"]["adjustments"]["France"] == 4 and obs["France"]["adjustments"]["Germany"] == -2
    assert infos["France"]["slots"] == ["build 1", "build 2"]  # four due, two sites (Brest, Marseilles)
    assert infos["Germany"]["slots"] == ["removal 1", "removal 2"]
    assert [o.describe() for o in infos["Germany"]["legal_orders"][1]] == ["Remove A kie", "Remove A mun",
                                                                           "Remove A ruh"]
    assert infos["Italy"]["slots"] == [] and not any(row.any() for row in obs["Italy"]["action_mask"])


def test_actions_as_order_objects_and_order_values(standard):
    env = parallel_env(standard)
    env.reset()
    par = UnitRef("A", "par")
    obs, _, _, _, infos = env.step({
        "France": [Move(par, "bur"), {"kind": "move", "unit": "A mar", "destination": "spa"}],
        "Germany": [{"power": "Germany", "kind": "move", "unit": "A mun", "destination": "ruh"}]})
    assert env.position.units["bur"].power == "France" and env.position.units["spa"].power == "France"
    assert env.position.units["ruh"].power == "Germany" and "par" not in env.position.units


def test_an_illegal_order_is_judged_with_its_reason_and_its_unit_holds(standard):
    env = parallel_env(standard)
    env.reset()
    _, _, _, _, infos = env.step({"France": [{"kind": "move", "unit": "A par", "destination": "mun"}]})
    assert env.position.units["par"].power == "France"
    line = next(r for r in infos["France"]["result"].report if r.power == "France" and r.unit.location == "par")
    assert line.status == "illegal" and "Munich" in line.reason and "holds" in line.reason


def test_an_action_the_environment_cannot_take_is_a_clear_error(standard):
    env = parallel_env(standard)
    _, infos = env.reset()
    count = len(infos["France"]["legal_orders"][0])
    with pytest.raises(IllegalAction, match=rf"France's slot 0 \(F bre\) has {count} legal orders, indices 0 to "
                                            rf"{count - 1} \(or -1: no order\); {count} is none of them"):
        env.step({"France": [count, 0, 0]})
    with pytest.raises(IllegalAction, match="France cannot give England's order 'F lon H'"):
        env.step({"France": [Hold(UnitRef("F", "lon"), power="England")]})
    with pytest.raises(IllegalAction, match=r"France's order object /0/destination: unknown place 'Atlantis'"):
        env.step({"France": [{"kind": "move", "unit": "F bre", "destination": "Atlantis"}]})
    with pytest.raises(IllegalAction, match="mixes indices with str"):
        env.step({"France": [0, "F bre H"]})
    with pytest.raises(IllegalAction, match="must be a sequence of indices, of orders or of order objects"):
        env.step({"France": "F bre H"})
    with pytest.raises(IllegalAction, match="'Prussia' is not an agent of this game"):
        env.step({"Prussia": []})
    with pytest.raises(IllegalAction, match="'Prussia' is no power of Standard Diplomacy; the powers: Austria, England"):
        env.action_space("Prussia")
    assert str(env.position.phase) == "Spring 1901 Movement"  # nothing was judged
    env.step({"France": [0, -1, 0]})  # -1: the slot's unit has no order (it holds)
    assert str(env.position.phase) == "Fall 1901 Movement"


def test_options_are_checked():
    with pytest.raises(EnvOptionError, match="max_years must be a whole number of at least 1"):
        parallel_env("standard", max_years=0)
    with pytest.raises(EnvOptionError, match="render_mode must be None or 'ansi'"):
        parallel_env("standard", render_mode="human")
    with pytest.raises(Exception, match="unknown scoring system 'elo'"):
        parallel_env("standard", scoring="elo")
    with pytest.raises(Exception, match="unknown variant 'standrad'"):
        parallel_env("standrad")
    with pytest.raises(NotAvailable, match="plays Diplomacy boards, not"):
        parallel_env("arctic2019")
    arctic = rules_of(load_variant("arctic")).initial_state(load_variant("arctic"))
    with pytest.raises(EnvOptionError, match="the position is one of the arctic board, and this environment plays standard"):
        parallel_env("standard", position=arctic)
    env = parallel_env("standard", rules="1971", render_mode="ansi")
    env.reset()
    assert env.position.rule_options(env.board).adjacent_convoy == "1971" and "France" in env.render()


def test_a_missing_extra_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(MissingExtra, match=r'the env extra .*pip install "arctic-adjudicator\[env\]"'):
        parallel_env("standard")


def _near_solo(standard):
    """Fall 1905: France holds 17 centres, its army in Burgundy one move from the 18th (Munich, empty)."""
    french = ["bre", "mar", "par", "spa", "por", "bel", "hol", "lon", "lvp", "edi", "nwy", "swe", "den", "kie",
              "ber", "tun", "nap"]
    return rules_of(standard).state_from_data(standard, {
        "phase": {"season": "Fall", "year": 1905, "type": "Movement"},
        "centres": {"France": french, "Germany": ["mun"], "Russia": ["mos", "war", "stp", "sev"],
                    "Austria": ["vie", "bud", "tri"], "Italy": ["rom", "ven"], "Turkey": ["con", "ank", "smy"]},
        "units": {"France": ["A bur"], "Germany": ["A sil"], "Russia": ["A mos"], "Austria": ["A vie"],
                  "Italy": ["A rom"], "Turkey": ["A con"], "England": ["F nth"]}}, None)


def test_a_solo_ends_the_game_with_the_scores_as_rewards(standard):
    env = parallel_env(standard, position=_near_solo(standard), scoring="sum-of-squares")
    env.reset()
    obs, rewards, terminations, truncations, infos = env.step({"France": [{"kind": "move", "unit": "A bur",
                                                                          "destination": "mun"}]})
    assert all(terminations.values()) and not any(truncations.values()) and env.agents == []
    assert rewards == {p: (100.0 if p == "France" else 0.0) for p in standard.powers}
    end = infos["France"]["end"]
    assert end.kind.value == "solo" and end.powers == ("France",) and end.year == 1905
    assert infos["Germany"]["scores"] == choose("sum-of-squares").scores(end)
    with pytest.raises(IllegalAction, match="the game is over: reset"):
        env.step({})


def test_the_year_limit_stops_the_game_scored_as_a_draw_of_the_survivors(standard):
    env = parallel_env(standard, max_years=1, scoring="sum-of-squares")
    _, infos = env.reset()
    rng = random.Random(5)
    rewards, truncations = {}, {}
    while env.agents:
        assert not any(rewards.values())  # 0 on every step before the end
        _, rewards, terminations, truncations, infos = env.step(random_actions(env, infos, rng))
    assert all(truncations.values()) and not any(terminations.values())
    end = infos["England"]["end"]
    assert end.kind.value == "stopped" and end.year == 1901 and str(env.position.phase) == "Spring 1902 Movement"
    scores = choose("sum-of-squares").scores(end)
    assert rewards == {p: float(scores[p]) for p in standard.powers} and abs(sum(rewards.values()) - 100) < 1e-9
    env.reset()  # a new game
    assert str(env.position.phase) == "Spring 1901 Movement" and env.agents == list(standard.powers)


def test_a_random_game_plays_to_a_solo():
    env = parallel_env("pure", seed=2)
    _, infos = env.reset()
    rng, rewards, terminations = random.Random(2), {}, {}
    for _ in range(2000):
        _, rewards, terminations, _, infos = env.step(random_actions(env, infos, rng))
        if not env.agents:
            break
    assert all(terminations.values())
    winner = infos["France"]["end"].powers[0]
    assert rewards[winner] == 100.0 and sum(rewards.values()) == 100.0


def test_a_seeded_game_plays_alike():
    def play(seed):
        env = parallel_env("standard", max_phases=12, seed=seed)
        observations, _ = env.reset()
        seen = []
        while env.agents:
            actions = {a: env.action_space(a).sample(mask=observations[a]["action_mask"]) for a in env.agents}
            observations, rewards, _, _, _ = env.step(actions)
            seen.append((state_to_data(env.board, env.position), rewards))
        return seen

    first = play(11)
    assert play(11) == first and len(first) == 12
    assert play(12) != first

    env = parallel_env("pure", seed=3)  # the environment's seed seeds its first game only: the next goes on
    draws = []
    for _ in range(2):
        observations, _ = env.reset()
        draws.append([tuple(env.action_space(a).sample(mask=observations[a]["action_mask"])) for a in env.agents])
    assert draws[0] != draws[1]


def test_a_thousand_random_phases_in_a_few_seconds(standard):
    """1,000 phases of random legal orders, on the standard board (games of 20 years, the environment reset at
    each end): about 3.5 s on this project's 2-core machine (benchmarks/env_rollout.py measures it)."""
    env = parallel_env(standard, max_years=20, seed=1)
    rng, phases = random.Random(1), 0
    started = time.perf_counter()
    while phases < 1000:
        _, infos = env.reset()
        while env.agents and phases < 1000:
            _, _, _, _, infos = env.step(random_actions(env, infos, rng))
            phases += 1
    assert time.perf_counter() - started < 30


def _phases(board, count, seed):
    """(position, orders) pairs of a random game: what a rollout would send to the batch judge."""
    env = parallel_env(board, seed=seed)
    _, infos = env.reset()
    rng, jobs = random.Random(seed), []
    while len(jobs) < count:
        if not env.agents:
            _, infos = env.reset()
        actions = random_actions(env, infos, rng)
        orders = [infos[a]["legal_orders"][slot][i] for a, indices in actions.items() for slot, i in enumerate(indices)]
        jobs.append((env.position, orders))
        _, _, _, _, infos = env.step(actions)
    return jobs


def _same(results, expected, board):
    assert len(results) == len(expected)
    for got, want in zip(results, expected):
        assert got.to_json() == want.to_json()
        assert state_to_data(board, got.next_state) == state_to_data(board, want.next_state)


@pytest.mark.parametrize("variant", ["standard", "arctic"])
def test_the_batch_judge_gives_what_judging_one_by_one_gives(variant):
    board = load_variant(variant)
    jobs = _phases(board, 60, seed=4)
    expected = [adjudicate(board, state, orders) for state, orders in jobs]
    _same(judge_many(board, jobs), expected, board)
    with BatchJudge(board, processes=2) as judge:  # the same in two worker processes, twice on the same workers
        _same(judge.judge(jobs), expected, board)
        _same(judge.judge(jobs[:7]), expected[:7], board)


def test_the_batch_judge_refuses_what_it_cannot_judge(standard):
    state = rules_of(standard).initial_state(standard)
    with pytest.raises(BatchError, match="item 1 must be a \\(position, orders\\) pair"):
        judge_many(standard, [(state, []), state])
    with pytest.raises(BatchError, match="item 0: its orders must be a sequence of the game's order values \\(no text"):
        judge_many(standard, [(state, "A par - bur")])
    with pytest.raises(BatchError, match="processes must be a whole number of at least 0"):
        judge_many(standard, [], processes=-1)
    assert judge_many(standard, []) == []


def test_orders_and_units_travel_to_worker_processes_unchanged():
    """What the batch judge's workers receive and send back: every kind of order, and units with coasts, pickled
    by their fields (`__reduce__`) and read back equal, of the same class."""
    import pickle

    from adjudicator.games.diplomacy.orders.model import Build, Convoy, Disband, Remove, Retreat, Support, Waive
    from adjudicator.games.diplomacy.state import Unit

    ref = UnitRef("A", "yor", None, "England")
    orders = [Hold(ref), Move(ref, "nwy", None, True, ("nth",), "England", "A yor - nth - nwy", 3),
              Support(UnitRef("F", "nth"), ref, "nwy", power="England"), Convoy(UnitRef("F", "nth"), ref, "nwy"),
              Retreat(UnitRef("F", "bar"), "stp", "nc"), Disband(ref), Remove(ref), Build(UnitRef("F", "stp", "sc")),
              Waive(power="Italy")]
    for order in orders:
        back = pickle.loads(pickle.dumps(order))
        assert back == order and type(back) is type(order) and back.describe() == order.describe()
    unit = pickle.loads(pickle.dumps(Unit("Russia", "F", "stp/nc")))
    assert unit == Unit("Russia", "F", "stp/nc") and (unit.province, unit.coast) == ("stp", "nc")


def test_the_readme_example_runs(capsys):
    """The README's ten-line example (its section's Python block), run as written."""
    from tests.helpers import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## A research environment (PettingZoo)"):]
    block = section[section.index("```python\n") + len("```python\n"):section.index("\n```\n")]
    assert len(block.strip().splitlines()) <= 11
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out  # e.g. "stopped {'units': 5, 'centres': 5} 16.33986928104575"
    assert out.split()[0] in ("stopped", "solo") and "'centres':" in out and float(out.split()[-1]) >= 0
