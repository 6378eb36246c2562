"""Order sheets as players send them: power headers or `Power: order` lines, comments, blank lines.

Every line is accounted for: an order (or several, separated by `;` or by `,` between complete orders), a
header, a comment, a blank, or a problem reported with its line, column and reason (never silently dropped).
Lines are split, not matched with regular expressions, so any line costs time linear in its length; a sheet
has at most `MAX_LINES` lines, and "did you mean" suggestions are worked out for the first
`MAX_SUGGESTED` problems only.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.diplomacy.board import Board
from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.games.diplomacy.orders.model import Build, Hold, Order
from adjudicator.games.diplomacy.orders.parse import UNIT, UnknownPlace, parser_for
from adjudicator.sheets import MAX_LINES, MAX_SUGGESTED, Sheet, SheetProblem, json_pointer, one_order_problem

MAX_PER_LINE = 100  # orders on one line (`;` or `,` between them)
_BULLETS = ("-", "*", "•", "·")
_NAME_CHARS = frozenset(" .'-’")
_LONGEST_NAME = 80  # characters before a colon that may still be a power's name


def _power_of(board: Board, text: str, lenient: bool = True) -> tuple[str | None, str | None]:
    try:
        if lenient:
            return board.power_names.lookup_lenient(text, "power")
        return board.power_names.lookup(text, "power"), None
    except (UnknownName, AmbiguousName):
        return None, None


def _is_comment(stripped: str) -> bool:
    return (stripped.startswith(("#", "//", ";")) or stripped == "--" or stripped.startswith(("-- ", "--\t")))


def _strip_comment(text: str) -> str:
    """The line without a trailing `#` or `//` comment."""
    cut = len(text)
    for mark in ("#", "//"):
        at = text.find(mark)
        if at != -1:
            cut = min(cut, at)
    return text[:cut]


def _looks_like_name(text: str) -> bool:
    """A power's name as written before a colon: letters, blanks, full stops, apostrophes, hyphens."""
    return bool(text) and text[0].isalpha() and all(ch.isalpha() or ch in _NAME_CHARS for ch in text)


def _complete(order: Order) -> bool:
    """An order that names its unit's type, or needs none (waive): what stands between commas as an order."""
    return order.unit is None or order.unit.type is not None


def _bullet_end(body: str) -> int:
    """Where a list bullet (`- `, `* `, `1. `, `2) `) before an order ends (0: no bullet)."""
    lead = len(body) - len(body.lstrip())
    rest = body[lead:]
    if rest[:1] in _BULLETS and rest[1:2].isspace():
        end = lead + 1
    else:
        digits = 0
        while digits < len(rest) and digits < 4 and rest[digits].isdigit():
            digits += 1
        if not digits or rest[digits:digits + 1] not in (".", ")") or not rest[digits + 1:digits + 2].isspace():
            return 0
        end = lead + digits + 1
    while end < len(body) and body[end].isspace():
        end += 1
    return end


class _Reader:
    """Reads the lines of one sheet (or one list of orders) into a Sheet."""

    def __init__(self, board: Board, state: Any, file: str | None):
        self.board = board
        self.parser = parser_for(board)
        self.file = file
        self.adjustment = state is not None and getattr(state.phase, "type", None) == "Adjustment"
        self.units: dict[str, set[str]] = {}  # power -> the places of its units (dislodged ones in a retreat)
        if state is not None:
            retreat = getattr(state.phase, "type", None) == "Retreat"
            placed = [d.unit for d in state.dislodged.values()] if retreat else list(state.units.values())
            for unit in placed:
                self.units.setdefault(unit.power, set()).add(unit.province)
        self.sheet: Sheet[Order] = Sheet()
        self.suggested = 0
        self.unit_words = {k for k, v in self.parser.lexicon.single.items() if v[0] == UNIT}

    def problem(self, line: int, column: int | None, raw: str, reason: str, suggestions: list[str] | None = None,
                unknown_name: bool = False, power: str | None = None) -> None:
        """Report a line (suggestions kept for the first MAX_SUGGESTED problems), with the power it was read for."""
        self.sheet.problems.append(SheetProblem(line, column, raw, reason, list(suggestions or []),
                                                unknown_name=unknown_name, power=power))

    def suggest(self) -> bool:
        """Whether the next problem may still have suggestions worked out (bounded work per sheet)."""
        self.suggested += 1
        if self.suggested == MAX_SUGGESTED + 1:
            self.sheet.notes.append(f"suggestions were worked out for the first {MAX_SUGGESTED} problems only; "
                                    "the others are reported without")
        return self.suggested <= MAX_SUGGESTED

    def order(self, text: str, line: int, column: int, power: str) -> Order:
        """One order (an OrderError otherwise); in an adjustment phase a unit alone is refused."""
        order = self.parser.parse(text, line=line, file=self.file, column_offset=column - 1, power=power,
                                  suggest=self.suggested < MAX_SUGGESTED, units=self.units.get(power))
        if self.adjustment and isinstance(order, Hold):
            unit = order.unit
            raise OrderError(f"{text.strip()!r} names a unit but no order: in an adjustment phase write "
                             f"'Build {unit}', 'Remove {unit}' (or '+ {unit}', '- {unit}') or 'Waive'; a unit alone "
                             "is not read as a hold", line=line, column=column)
        return order

    def orders(self, body: str, line: int, column: int, power: str, raw: str) -> None:
        """The orders of one line's body: one, or several separated by `;`, or by `,` when every part is an order."""
        separators = max(body.count(";"), body.count(","))
        if separators >= MAX_PER_LINE:  # counted before splitting: bounded work for any line
            self.problem(line, column, raw, f"a line of {separators + 1:,} orders; a line holds at most {MAX_PER_LINE}",
                         power=power)
            return
        parts = self._split(body, ";")
        before_comma: tuple[str, OrderError] | None = None  # the part before the first comma, when no order
        if len(parts) == 1 and "," in body:
            pieces = self._split(body, ",")
            read: list[Order] = []
            for at, piece in pieces:
                if not piece.strip():
                    continue
                try:
                    read.append(self.order(piece, line, column + at, power))
                except OrderError as exc:
                    if not read:
                        before_comma = (piece.strip(), exc)
                    break  # not complete orders on both sides: the line is read as one order below
            else:  # every piece an order, each complete (`A Vie - Bud, Ser`: `Ser` alone is no order after a comma)
                if all(_complete(o) for o in read):
                    self._add(read, line)
                    return
        for at, part in parts:
            if not part.strip():
                continue
            try:
                order = self.order(part, line, column + at, power)
            except OrderError as first:
                problem = first
                if _bullet_end(part):
                    try:  # `- Build A par`, `- A Par - Bur`: a bullet, not a removal sign
                        cut = _bullet_end(part)
                        unbulleted = self.order(part[cut:], line, column + at + cut, power)
                    except OrderError as without:
                        problem = without  # (what the order says past its bullet is what is wrong)
                    else:
                        self._add([unbulleted], line)
                        continue
                unknown = isinstance(problem, UnknownPlace)
                if before_comma is not None:  # `Cheers, Bob`: no order, whole or between its commas
                    piece, problem = before_comma
                    unknown = isinstance(problem, UnknownPlace)
                    problem = OrderError(f"not an order: {part.strip()!r} does not read as one, nor does {piece!r} "
                                         f"before its comma ({problem.message}); a comma separates orders",
                                         line=line, column=column + at, suggestions=problem.suggestions)
                suggestions = problem.suggestions if self.suggest() else []
                self.problem(line, problem.column, raw, problem.message, suggestions, unknown, power)
                continue
            self._add([order], line)

    def hint(self, orders: list[Order], power: str, line: int, header: int, inline: dict[str, int]) -> None:
        """Why an order read for its header's power names another power's unit, for the report: which header the
        line was read for, and (when one came since) that a `Power:` on a line is for that line only."""
        own = self.units.get(power, ())
        for order in orders:
            ref = order.unit
            if ref is None or isinstance(order, Build) or ref.province in own:
                continue
            owner = next((p for p, places in self.units.items() if ref.province in places), None)
            if owner is None:
                continue
            hint = f"this line is read for {power} (the header on line {header})"
            if owner in inline:
                hint += f"; the `{owner}:` on line {inline[owner]} applies to its own line only"
            self.sheet.hints[line] = hint
            return

    def _add(self, orders: list[Order], line: int) -> None:
        for order in orders:
            self.sheet.orders.append(order)
            self.sheet.notes += [f"line {line}: {note}" for note in order.notes]

    @staticmethod
    def _split(body: str, mark: str) -> list[tuple[int, str]]:
        """The parts of a body between marks, each with its offset."""
        out, start = [], 0
        while True:
            at = body.find(mark, start)
            if at == -1:
                out.append((start, body[start:]))
                return out
            out.append((start, body[start:at]))
            start = at + 1

    def leading_power(self, content: str) -> tuple[str, int] | None:
        """`Aus A Vie - Bud`, `Russia F Sev - Bla`: a power's name before a unit word, with no colon."""
        words = content.split(None, 4)[:4]  # a power's name has at most three words (bounded work)
        for n in range(1, min(4, len(words))):
            if _looks_like_name(" ".join(words[:n])) and words[n].casefold() in self.unit_words:
                name, _ = _power_of(self.board, " ".join(words[:n]), lenient=False)
                if name is not None:
                    at = 0
                    for w in words[:n]:
                        at = content.index(w, at) + len(w)
                    return name, at
        return None


def read_sheet(board: Board, text: str, file: str | None = None, default_power: str | None = None,
               state: Any = None) -> Sheet[Order]:
    """Read an order sheet; orders carry their power, line and text. A leading `-` / `+` before a unit alone is a
    removal / build at any phase (judged as such, so refused at a movement phase), and a bullet before a longer
    order; with the game's `state`, a unit alone is refused in an adjustment phase."""
    reader = _Reader(board, state, file)
    sheet = reader.sheet
    sheet.text = text
    count = text.count("\n") + 1
    if count > MAX_LINES:
        sheet.refusal = f"the sheet has {count:,} lines; at most {MAX_LINES:,} are read: send it in parts"
        return sheet
    power = default_power
    header_line: int | None = None  # the line of the header `power` comes from
    inline: dict[str, int] = {}  # powers named on a line of their own order since that header -> the line
    unknown_header: tuple[int, str] | None = None  # the last header, when it named no power: (line, name)
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or _is_comment(stripped):
            continue
        content = _strip_comment(raw).rstrip()
        if not content.strip():
            continue
        head, colon, rest = content.partition(":")
        name_before_colon = colon and len(head) <= _LONGEST_NAME and _looks_like_name(head.strip())
        if not colon or (name_before_colon and not rest.strip()):
            # "Russia:" (may be misspelt) or a bare "Russia" / "Aus" line (exactly a power's name) is a header
            candidate = head.strip()
            if len(candidate) <= _LONGEST_NAME and _looks_like_name(candidate) and candidate.lower() != "waive":
                name, note = _power_of(board, candidate, lenient=bool(colon))
                if name is not None:
                    power, unknown_header, header_line, inline = name, None, number, {}
                    if note:
                        sheet.notes.append(f"line {number}: {note}")
                    continue
        offset = 0
        if name_before_colon:
            name, note = _power_of(board, head.strip())
            if name is None:  # a word in the power's place: the powers it is closest to
                hint = board.power_names.suggest(head.strip()) if reader.suggest() else []
                reader.problem(number, len(head) - len(head.lstrip()) + 1, raw,
                               f"{head.strip()!r} is not a power of the {board.title} board ({', '.join(board.powers)})",
                               hint, unknown_name=True)
                if not rest.strip():  # a header: the lines under it are no other power's
                    power, unknown_header, header_line, inline = None, (number, head.strip()), None, {}
                continue
            if note:
                sheet.notes.append(f"line {number}: {note}")
            line_power: str | None = name
            body = rest
            offset = len(head) + 1
            read_for_header: int | None = None  # the header's line, when the line is read for its power
        else:
            leading = reader.leading_power(content)
            if leading is not None:
                line_power, offset = leading
                body = content[offset:]
                read_for_header = None
            else:
                line_power = power
                body = content
                read_for_header = header_line
        if body.lstrip()[:1] not in ("-", "+"):  # (`- F Lon` is a removal at any phase, never a bullet and a hold)
            cut = _bullet_end(body)
            offset += cut
            body = body[cut:]
        if not body.strip():
            if name_before_colon:
                power, header_line, inline = line_power, number, {}  # "Russia:" followed by nothing is a header
            continue
        if line_power is None and unknown_header is not None:
            reader.problem(number, 1, raw, f"no power for this order: the header {unknown_header[1]!r} on line "
                                           f"{unknown_header[0]} is not a power of the {board.title} board",
                           unknown_name=True)
            continue
        if line_power is None:
            reader.problem(number, 1, raw, "no power for this order: put 'Power:' before it or a 'Power:' header line "
                                           "above it")
            continue
        lead = len(body) - len(body.lstrip())
        read = len(sheet.orders)
        reader.orders(body.strip(), number, offset + lead + 1, line_power, raw)
        if read_for_header is not None:
            sheet.header_lines[number] = read_for_header
            reader.hint(sheet.orders[read:], line_power, number, read_for_header, inline)
        elif line_power is not None and line_power != power and header_line is not None:
            inline.setdefault(line_power, number)
    return sheet


def orders_from_lists(board: Board, orders: dict[str, list[str]], state: Any = None) -> Sheet[Order]:
    """Orders given as lists of strings per power (the API's second form)."""
    reader = _Reader(board, state, None)
    sheet = reader.sheet
    count = sum(len(texts) for texts in orders.values() if isinstance(texts, list))
    if count > MAX_LINES:
        sheet.refusal = f"{count:,} orders were sent; at most {MAX_LINES:,} are read: send them in parts"
        return sheet
    for power_name, texts in orders.items():
        first = len(sheet.problems)
        _read_power_list(reader, board, power_name, texts)
        for p in sheet.problems[first:]:  # each points at its item in the request (`/France/2`)
            p.pointer = json_pointer(power_name, p.line - 1) if p.line else json_pointer(power_name)
    return sheet


def _read_power_list(reader: "_Reader", board: Board, power_name: str, texts: list[str]) -> None:
    """One power's list of order strings, each problem on its line (its place in the list, from 1)."""
    sheet = reader.sheet
    name, note = _power_of(board, power_name)
    if name is None:
        reader.problem(0, None, power_name, f"{power_name!r} is not a power of the {board.title} board "
                                            f"({', '.join(board.powers)})")
        return
    if note:
        sheet.notes.append(note)
    for i, text in enumerate(texts):
        bad = one_order_problem(str(text))  # one item, one order on one line: never read as a sheet's lines
        if bad is not None:
            reader.problem(i + 1, bad[0], str(text), bad[1], power=name)
            continue
        body, column = str(text), 1
        head, colon, rest = body.partition(":")
        before = colon and len(head) <= _LONGEST_NAME and _looks_like_name(head.strip())
        named = _power_of(board, head.strip(), lenient=False)[0] if before else None
        if named is not None and named != name:  # `Norway: F Tro H` in Russia's list is nobody's order
            reader.problem(i + 1, len(head) - len(head.lstrip()) + 1, body, f"an item of {name}'s list is one of "
                           f"{name}'s orders, not {named}'s: each power's orders come with its own token", power=name)
            continue
        if named is not None:  # the power's own name before its order
            body, column = rest, len(head) + 2
        try:
            order = reader.order(body, i + 1, column, name)
        except OrderError as exc:
            reader.problem(i + 1, exc.column, str(text), exc.message, exc.suggestions if reader.suggest() else [],
                           power=name)
            continue
        except AdjudicatorError as exc:  # pragma: no cover - the parser raises OrderError
            reader.problem(i + 1, None, str(text), exc.message, power=name)
            continue
        reader._add([order], i + 1)


def order_part(raw: str) -> str:
    """A sheet line's order as the sheet reader reads it: without its trailing comment, stripped."""
    return _strip_comment(raw).strip()
