"""Draw votes and concessions as values: what a body casts, and when the survivors' votes end the game."""

import pytest

from adjudicator.game_end import EndKind
from adjudicator.hosted.errors import HostedError
from adjudicator.hosted.votes import Vote, outcome, read_vote

SURVIVORS = ["England", "France", "Germany", "Russia"]


def test_dias_is_the_draw_of_every_survivor_in_the_boards_order():
    assert read_vote({"draw": "dias"}, "France", SURVIVORS, named=False) == Vote(tuple(SURVIVORS), dias=True)
    written = read_vote({"draw": ["Russia", "Germany", "France", "England"]}, "France", SURVIVORS, named=False)
    assert written == Vote(tuple(SURVIVORS))  # the same draw however it is written
    votes = {p: dias() for p in SURVIVORS[:2]} | {p: written for p in SURVIVORS[2:]}
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) == (EndKind.DRAW, tuple(SURVIVORS))


def test_a_dias_vote_is_for_whoever_survives_when_the_votes_are_counted():
    votes = {p: dias() for p in SURVIVORS}  # cast while Russia survived
    assert outcome(votes, SURVIVORS[:-1], set(), disorder_yes=True) == (EndKind.DRAW, tuple(SURVIVORS[:-1]))
    named = {p: Vote(tuple(SURVIVORS)) for p in SURVIVORS}  # a draw naming Russia is not one without it
    assert outcome(named, SURVIVORS[:-1], set(), disorder_yes=True) is None


def test_a_named_draw_is_refused_where_draws_include_all_survivors():
    with pytest.raises(HostedError) as caught:
        read_vote({"draw": ["England", "France"]}, "France", SURVIVORS, named=False)
    assert caught.value.kind.value == "refused" and '"dias"' in caught.value.detail


@pytest.mark.parametrize("body, words", [
    ({"draw": ["England", "Austria"]}, "'Austria' is not a survivor"),
    ({"draw": ["England"]}, "at least two different survivors"),
    ({"draw": ["England", "England"]}, "at least two different survivors"),
    ({"concede_to": "France"}, "not to itself"),
    ({"concede_to": "Italy"}, "'Italy' is not a survivor"),
    ({"draw": "dias", "concede_to": "England"}, "not both"),
    ({"draw": 3}, '"dias"'),
])
def test_a_bad_vote_is_refused_in_words(body, words):
    with pytest.raises(HostedError) as caught:
        read_vote(body, "France", SURVIVORS, named=True)
    assert words in caught.value.detail


def test_an_eliminated_power_does_not_vote():
    with pytest.raises(HostedError) as caught:
        read_vote({"draw": "dias"}, "Italy", SURVIVORS, named=True)
    assert "eliminated" in caught.value.detail


def test_no_draw_or_concession_withdraws_the_vote():
    assert read_vote({}, "France", SURVIVORS, named=True) is None


def dias():
    return Vote(tuple(SURVIVORS), dias=True)


def test_a_draw_passes_only_when_every_survivor_votes_for_it():
    votes = {p: dias() for p in SURVIVORS[:-1]}
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) is None
    votes["Russia"] = dias()
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) == (EndKind.DRAW, tuple(SURVIVORS))


def test_a_named_draw_fails_while_one_survivor_votes_otherwise():
    two = Vote(("England", "France"))
    votes = {"England": two, "France": two, "Germany": two, "Russia": dias()}
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) is None
    votes["Russia"] = two  # those left out agree too: it passes
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) == (EndKind.DRAW, ("England", "France"))


def test_a_seat_in_civil_disorder_votes_yes_unless_the_settings_say_no():
    votes = {p: dias() for p in SURVIVORS[:-1]}
    assert outcome(votes, SURVIVORS, {"Russia"}, disorder_yes=True) == (EndKind.DRAW, tuple(SURVIVORS))
    assert outcome(votes, SURVIVORS, {"Russia"}, disorder_yes=False) is None


def test_every_survivor_in_disorder_is_no_draw():
    assert outcome({}, SURVIVORS, set(SURVIVORS), disorder_yes=True) is None


def test_a_concession_needs_every_other_survivor():
    votes = {"France": Vote(concede_to="England"), "Germany": Vote(concede_to="England")}
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) is None
    votes["Russia"] = Vote(concede_to="Germany")
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) is None
    votes["Russia"] = Vote(concede_to="England")
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) == (EndKind.CONCESSION, ("England",))


def test_a_vote_round_trips_as_stored():
    for vote in (dias(), Vote(concede_to="England")):
        assert Vote.from_json(vote.to_json()) == vote
    assert Vote.from_json(None) is None


def test_a_concession_stands_whatever_the_winners_own_vote():
    votes = {p: Vote(concede_to="England") for p in SURVIVORS if p != "England"}
    votes["England"] = Vote(concede_to="France")  # (England's own vote does not count)
    assert outcome(votes, SURVIVORS, set(), disorder_yes=True) == (EndKind.CONCESSION, ("England",))


def test_two_survivors_conceding_to_each_other_agree_on_no_one():
    votes = {"England": Vote(concede_to="France"), "France": Vote(concede_to="England")}
    assert outcome(votes, ["England", "France"], set(), disorder_yes=True) is None
