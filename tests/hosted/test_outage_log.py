"""An outage of the games' database is logged once when it starts, then at most once a minute with how many
requests were refused, and once when the database answers again: a balancer polling `/readyz` every second
floods no log (issue 34's leftover)."""

from __future__ import annotations

import logging

from tests.hosted.helpers import make_api

from api.hosted import Outage


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_outage_is_one_line_then_one_a_minute_then_one_when_it_ends(caplog) -> None:
    clock = Clock()
    outage = Outage(every=60.0, clock=clock)
    caplog.set_level(logging.WARNING, logger="adjudicator.api")
    for second in range(150):  # a balancer's poll every second for two and a half minutes
        clock.now = float(second)
        outage.failed(ConnectionRefusedError("connection refused"))
    outage.answered()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4, lines
    assert lines[0] == "the games' database is unavailable (ConnectionRefusedError): connection refused"
    assert "still unavailable after 60 s" in lines[1] and "60 request(s) refused" in lines[1]
    assert "still unavailable after 120 s" in lines[2] and "60 request(s) refused" in lines[2]
    assert lines[3] == "the games' database answers again after 149 s; 29 request(s) refused since the last line"
    outage.answered()  # answering while up says nothing
    assert len(caplog.records) == 4


def test_readiness_polls_of_a_missing_database_log_one_line(tmp_path, caplog) -> None:
    api = make_api(f"sqlite:///{tmp_path / 'nowhere' / 'games.sqlite3'}")
    caplog.set_level(logging.WARNING, logger="adjudicator.api")
    answers = [api.client.get("/readyz").status_code for _ in range(20)]
    assert answers == [503] * 20
    assert len([r for r in caplog.records if "database" in r.getMessage()]) == 1
