"""benchmarks/instructions.py: each part runs (as the process callgrind would count), and without valgrind the
script says what is missing instead of failing."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers import benchmark


@pytest.mark.parametrize("part", benchmark("instructions").PARTS)
def test_every_part_runs_over_the_phases(part: str, monkeypatch) -> None:
    instructions = benchmark("instructions")
    calls = []
    real = instructions._inputs
    monkeypatch.setattr(instructions, "_inputs", lambda phases, seed: calls.append(phases) or real(phases, seed))
    instructions.child(part, 3, 5, 3)
    assert calls == [3]


def test_the_inputs_are_movement_phases_of_the_seed() -> None:
    instructions = benchmark("instructions")
    first, again = instructions._inputs(4, 5), instructions._inputs(4, 5)
    assert [s.phase.type for s, _, _ in first] == ["Movement"] * 4
    assert [texts for _, texts, _ in first] == [texts for _, texts, _ in again]  # seeded: the same work each run
    assert instructions._inputs(4, 6)[1][1] != first[1][1]


def test_without_valgrind_it_says_so(monkeypatch, capsys) -> None:
    instructions = benchmark("instructions")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert instructions.main(["--parts", "judge"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_phases_must_be_positive() -> None:
    with pytest.raises(SystemExit):
        benchmark("instructions").main(["--phases", "0"])
