"""A Lark grammar's LALR(1) table, run by a small loop over a string of one-character terminal codes.

Lark compiles and checks the grammar and builds the LALR table; this module only runs that table. Lark's own
front end costs 30-50 microseconds a call for an order of five words (a lexer, token objects, a tree builder
wrapping the transformer), which is most of what reading an unseen order costs. Here a terminal is one
character of the input, its value is its index, and each rule's callback gets the rule's symbol names and the
values of its children, so an order costs a few dictionary lookups per word.

Rules whose names start with `_` (Lark's inlined rules, such as the ones `x*` makes) are spliced into their
parent, as Lark does. A parse error names the index where it happened (None: the end of the input) and the
terminals the table would have accepted there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from lark import Lark
from lark.common import ParserConf
from lark.parsers.lalr_analysis import LALR_Analyzer, Shift

END = "$END"

# callback(names of the rule's symbols, values of its children) -> the value of the rule
Callback = Callable[[Sequence[str], list[Any]], Any]


class UnexpectedTerminal(Exception):
    """The input cannot go on here: `index` into the input (None at its end), what would have been accepted."""

    def __init__(self, index: int | None, terminal: str, expected: frozenset[str]):
        super().__init__(f"unexpected {terminal} at {index}; expected {', '.join(sorted(expected))}")
        self.index = index
        self.terminal = terminal
        self.expected = expected


@dataclass(frozen=True)
class _Rule:
    origin: str
    names: tuple[str, ...]  # the rule's symbols, as written in its expansion
    size: int
    callback: Callback | None  # None: an inlined rule (its children go to its parent)
    splices: bool  # some child is an inlined rule


class LalrTable:
    """A grammar's LALR(1) table (built by Lark once) with a callback per rule, run over terminal codes."""

    def __init__(self, grammar: str, callbacks: dict[str, Callback], start: str = "start"):
        """`callbacks`: by a rule's alias (`-> name`) or, without one, its name; every rule needs one except
        the inlined ones (`_name`), which Lark makes for `x*` and the like."""
        lark = Lark(grammar, parser="lalr", maybe_placeholders=False)
        self.code_of = {t.name: t.pattern.value for t in lark.terminals}  # PLACE -> "P"
        self.terminal_of = {code: name for name, code in self.code_of.items()}
        rule_names = {str(r.origin.name) for r in lark.rules}
        for name, code in self.code_of.items():
            if len(code) != 1 or code in rule_names or code == END:
                raise ValueError(f"terminal {name} is {code!r}: each terminal must be one character, no rule's name")
        analyzer = LALR_Analyzer(ParserConf(lark.rules, {}, [start]))
        analyzer.compute_lalr()  # type: ignore[no-untyped-call]  # (Lark's analyser is not annotated)
        table = analyzer.parse_table
        inlined = {str(r.origin.name) for r in lark.rules if r.origin.name.startswith("_")}
        rules: dict[Any, _Rule] = {}
        for r in lark.rules:
            name = str(r.origin.name)
            names = tuple(str(s.name) for s in r.expansion)
            callback = None if name in inlined else callbacks.get(r.alias or name)
            if callback is None and name not in inlined:
                raise KeyError(f"no callback for the rule {r.alias or name!r}")
            rules[r] = _Rule(name, names, len(names), callback, any(n in inlined for n in names))
        # state -> a terminal's code (or $END, or a rule's name) -> a state to shift to (int) or a rule to reduce by
        number = {state: i for i, state in enumerate(table.states)}
        self.states: list[dict[str, int | _Rule]] = [{} for _ in number]
        for state, actions in table.states.items():
            row = self.states[number[state]]
            for symbol, (action, arg) in actions.items():
                row[self.code_of.get(str(symbol), str(symbol))] = number[arg] if action is Shift else rules[arg]
        self.start = number[table.start_states[start]]
        self.end = number[table.end_states[start]]

    def parse(self, codes: str) -> Any:
        """The start rule's value for these terminal codes (one character each), or UnexpectedTerminal."""
        table = self.states
        states = [self.start]
        values: list[Any] = []
        for i, code in enumerate([*codes, END]):
            while True:
                action = table[states[-1]].get(code)
                if action is None:
                    raise self._unexpected(states[-1], i if code != END else None, code)
                if isinstance(action, int):  # shift
                    states.append(action)
                    values.append(i)
                    break
                size = action.size  # reduce
                if size:
                    children = values[-size:]
                    del values[-size:], states[-size:]
                else:
                    children = []
                names: Sequence[str] = action.names
                if action.splices:
                    names, children = _spliced(names, children)
                value = (names, children) if action.callback is None else action.callback(names, children)
                states.append(table[states[-1]][action.origin])  # type: ignore[arg-type]
                if code == END and states[-1] == self.end:
                    return value
                values.append(value)
        raise AssertionError("the LALR table ended without accepting or refusing")  # pragma: no cover

    def sentences(self, alphabet: str, longest: int) -> list[str]:
        """Every string of these terminal codes, at most `longest` long, that the table accepts (found by walking
        the table with a stack of states, pruning at the first code it refuses)."""
        found: list[str] = []

        def walk(states: list[int], prefix: str) -> None:
            if self._after(states, END) is not None:
                found.append(prefix)
            if len(prefix) < longest:
                for code in alphabet:
                    after = self._after(states, code)
                    if after is not None:
                        walk(after, prefix + code)

        walk([self.start], "")
        return found

    def _after(self, states: list[int], code: str) -> list[int] | None:
        """The stack of states after one more terminal (every reduction it causes, then its shift), or None."""
        states = list(states)
        while True:
            action = self.states[states[-1]].get(code)
            if action is None:
                return None
            if isinstance(action, int):
                states.append(action)
                return states
            if action.size:
                del states[-action.size:]
            states.append(self.states[states[-1]][action.origin])  # type: ignore[arg-type]
            if code == END and states[-1] == self.end:
                return states

    def _unexpected(self, state: int, index: int | None, code: str) -> UnexpectedTerminal:
        expected = frozenset(self.terminal_of.get(s, s) for s in self.states[state]
                             if s in self.terminal_of or s == END)
        return UnexpectedTerminal(index, self.terminal_of.get(code, code), expected)


def _spliced(names: Sequence[str], children: list[Any]) -> tuple[list[str], list[Any]]:
    """The children of a rule with its inlined children's own children in their place."""
    out_names: list[str] = []
    out: list[Any] = []
    for name, child in zip(names, children):
        if name.startswith("_"):
            out_names.extend(child[0])
            out.extend(child[1])
        else:
            out_names.append(name)
            out.append(child)
    return out_names, out
