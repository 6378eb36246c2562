"""The `adjudicator` command: a thin shell over the library (case runner, game master's tool, server).

Long file: the one command's subcommands, each a few lines handing its options to the library, kept together
with the one exit-status table they all answer by."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import NoReturn

import click

from adjudicator import __version__, scoring, slips
from adjudicator.case_files import run_files
from adjudicator.catalogue import load_board_ref, variant_summaries
from adjudicator.errors import AdjudicatorError
from adjudicator.extras import MissingExtra, require, require_driver
from adjudicator.game import rules_of
from adjudicator.game_end import EndKind, GameEnd
from adjudicator.gamefile import (GameEnded, GameFile, RecordedEnd, check_whole, dump_game, ended_refusal,
                                  game_file_from_data, read_game, read_game_file, write_atomic)
from adjudicator.loglines import escape_to_stderr
from adjudicator.refusals import Kind, Refusal
from adjudicator.render.shelves import folder_shelf, user_shelf, using_shelves
from adjudicator.rewind import keep_for_rewind
from adjudicator.rewind import rewind as rewound
from adjudicator.textio import decode_text, read_text
from adjudicator.turn import SheetRefused, check_sheet, play_turn, read_sheet, sheet_refusal
from adjudicator.variant_check import check_variant_file
from adjudicator.yamlio import load_yaml_text

# The one table from a refusal's kind to the command's exit status (tests/test_refusal_tables.py: every kind has
# one). Every refusal is 2, "not done"; 1 is not a refusal: done, and what was done found failures (a failing
# case, lines that are not orders, a board's problems).
EXIT_STATUS: dict[Kind, int] = {
    Kind.BAD_INPUT: 2, Kind.UNAUTHENTICATED: 2, Kind.FORBIDDEN: 2, Kind.NOT_FOUND: 2, Kind.CONFLICT: 2,
    Kind.TOO_LARGE: 2, Kind.UNSUPPORTED_MEDIA: 2, Kind.REFUSED: 2, Kind.TOO_MANY: 2, Kind.UNAVAILABLE: 2,
    Kind.FULL: 2,
}


def fail(exc: Refusal) -> NoReturn:
    """Print a refusal plainly and exit with its kind's status (EXIT_STATUS)."""
    click.echo(f"error: {exc}", err=True)
    sys.exit(EXIT_STATUS[exc.kind])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="adjudicator")
def main() -> None:
    """Diplomacy-variant adjudicator: judge phases, run DATC case files, serve a JSON API."""


# The rule options (DATC chapter 4 answers, adjudicator/games/diplomacy/rulebook.py): one spelling for every command.
_RULES_OPTION = click.option("--rules", "rules_text", metavar="RULES",
                             help="Play by these rules: a set and/or keys, e.g. '1971' or '2000, 4.A.2: szykman' "
                                  "(the sets and keys are in the README's 'Rule options').")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-v", "--verbose", is_flag=True, help="Also list passing cases and warnings.")
@_RULES_OPTION
def datc(paths: tuple[str, ...], verbose: bool, rules_text: str | None) -> None:
    """Run DATC-style case files (files or folders) and report failing cases.

    --rules applies to every case, under what each file's or case's RULES line says.
    Exits 0 when every case passes, 1 when a case fails, 2 when a file cannot be read at all."""
    from adjudicator.games.diplomacy.rulebook import rulebook_from_text  # (Diplomacy's: loaded only by the command that needs it)

    try:
        rulebook_from_text(rules_text, what="--rules")  # (refused here, once, not in every case)
    except AdjudicatorError as exc:
        fail(exc)
    outcomes, errors = run_files(paths, rules_text)
    for err in errors:
        click.echo(f"error: {err}")
    passed = failed = 0
    for o in outcomes:
        if o.passed:
            passed += 1
            if verbose:
                click.echo(f"PASS {o.case.name} ({o.where})")
        else:
            failed += 1
            click.echo(f"FAIL {o.case.name} ({o.where})")
            for problem in o.problems:
                click.echo("  " + problem.replace("\n", "\n  "))
        if verbose or not o.passed:
            for note in o.notes:
                click.echo(f"  note: {note}")
    unread = f"; {len(errors)} file(s) could not be read, their cases not run" if errors else ""
    click.echo(f"{passed} passed, {failed} failed{unread}")  # (a file not read is no failed case: nothing ran)
    sys.exit(EXIT_STATUS[errors[0].kind] if errors else 0 if failed == 0 else 1)  # a file not read at all: refused


def _load_game(path: str, sheet: str | None = None, rules_text: str | None = None):
    """(board, state) of a game file, played by `--rules` over its own rules when given; when it is no game file
    but `sheet` (the argument after it) is one, the error says the two were given the wrong way round."""
    game = _load(path, sheet, rules_text)
    return game.board, game.state


def _load(path: str, sheet: str | None = None, rules_text: str | None = None) -> GameFile:
    """A game file read (board, state and end), as `_load_game` reads it."""
    try:
        game = read_game(path)
        rules_of(game.board).play_by(game.board, game.state, rules_text, what="--rules")
        return game
    except AdjudicatorError as exc:
        if sheet not in (None, "-") and _is_game_file(sheet):
            fail(AdjudicatorError(f"this is not a game file, but {sheet} is: the game file comes first, then the "
                                  f"order sheet ({exc.message})", file=path))
        fail(exc)


def _is_game_file(path: str) -> bool:

    try:
        read_game_file(path)
    except AdjudicatorError:
        return False
    return True


def _sheet_text(path: str) -> str:
    """An order sheet's text, from a file or (`-`) from standard input."""
    try:
        if path == "-":
            return decode_text(sys.stdin.buffer.read(), "<stdin>")
        return read_text(path)
    except AdjudicatorError as exc:
        fail(exc)


def _refuse_overwrite(output: str | None, force: bool) -> None:

    if output and Path(output).exists() and not force:
        fail(AdjudicatorError("the file exists; use --force to overwrite it", file=output))


def _keep_backup(game: str) -> None:
    """GAME.bak: the game file as it was before the command that replaces it."""
    try:
        shutil.copy2(game, game + ".bak")
    except OSError as exc:
        fail(AdjudicatorError(f"cannot keep a backup: {exc.strerror or exc}; nothing was written", file=game))


def _write(path: str, data: str | bytes) -> None:

    try:
        write_atomic(path, data)
    except OSError as exc:
        fail(AdjudicatorError(f"cannot write the file: {exc.strerror or exc}; nothing was written", file=path))


@main.command()
@click.option("--variant", "variant_name", default="standard", show_default=True,
              help="A shipped variant's name, or a board file's path (e.g. boards/mine.yaml).")
@click.option("-o", "--output", type=click.Path(), help="Write the game file here (default: print it).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@click.option("--seed", type=int, help="Shuffle the set-up with this seed (games with a random set-up, such as "
              "arctic-race); the same seed gives the same game.")
@click.option("--setup", "setup_file", type=click.Path(), help="Set the game up as this sheet describes (arctic-race: "
              "`players`, `start` and `river` as laid out on the table, or `tiles`).")
def new(variant_name: str, output: str | None, force: bool, seed: int | None, setup_file: str | None) -> None:
    """Write the opening position of a variant as a game file."""
    try:
        board = load_board_ref(variant_name, ".")  # a name, or a board file's path
        rules = rules_of(board)
        setup_text = read_text(setup_file) if setup_file is not None else None
        start = rules.new_game(board, seed=seed, setup_text=setup_text, file=setup_file)
        text = dump_game(board, start, output)
    except AdjudicatorError as exc:
        fail(exc)
    if output is None:
        click.echo(text, nl=False)
        return
    _refuse_overwrite(output, force)
    _write(output, text)
    phase = rules.phase_name(start)
    click.echo(f"wrote {output}: {board.title}" + (f", {phase}" if phase else ""))


@main.command()
@click.argument("game", type=click.Path())
@click.argument("orders", type=click.Path(allow_dash=True), required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("-o", "--output", type=click.Path(), help="Write the next game file here.")
@click.option("--force", is_flag=True, help="With -o: overwrite an existing file.")
@click.option("--in-place", is_flag=True, help="Replace the game file with the next one (keeps GAME.bak; "
              "`adjudicator rewind` undoes any number of steps).")
@click.option("--strict", is_flag=True, help="Refuse the sheet, writing nothing, if any line is not an order "
              "(by default such lines are reported and the other orders are judged).")
@click.option("--no-orders", is_flag=True, help="Judge the phase with no orders at all, without a sheet (every unit "
              "holds, no retreat, no build): a phase is never judged so by accident.")
@click.option("--same-sheet", is_flag=True, help="Judge the sheet even though the phase before was judged with "
              "the same one (refused otherwise, as a slip).")
@_RULES_OPTION
def adjudicate(game: str, orders: str | None, as_json: bool, output: str | None, force: bool, in_place: bool,
               strict: bool, no_orders: bool, same_sheet: bool, rules_text: str | None) -> None:
    """Judge the game's current phase with an order sheet (`-`: standard input); print the report and write the
    next position.

    Lines of the sheet that are not orders are reported with line, column and reason, and the other orders
    are judged; with --strict any such line refuses the sheet and nothing is written. Refused whole, writing
    nothing: a sheet for another kind of phase (naming the game's phase), a sheet from which no order was read,
    one that mostly names places the board does not have, and the sheet the phase before was judged with."""


    if output and in_place:
        fail(AdjudicatorError("use either -o/--output or --in-place, not both"))
    if output and Path(output).resolve() == Path(game).resolve():
        fail(AdjudicatorError("-o would overwrite the game file; use --in-place to replace it (a backup is kept)",
                              file=output))
    _refuse_overwrite(output, force)
    loaded = _load(game, orders, rules_text)
    board, state = loaded.board, loaded.state
    if loaded.end is not None:
        fail(ended_refusal(rules_of(board), loaded.end, game))
    if orders is None and not no_orders:
        phase = rules_of(board).phase_name(state) or "the game's turn"
        fail(AdjudicatorError(f"no order sheet: give it after the game file (adjudicator adjudicate {game} "
                              f"orders.txt), or `-` to read it from standard input; to judge {phase} with no "
                              "orders at all, add --no-orders"))
    if orders is not None and no_orders:
        fail(AdjudicatorError("--no-orders judges the phase without a sheet: leave out the sheet, or the flag"))
    text = _sheet_text(orders) if orders is not None else ""
    where = orders if orders != "-" else "<stdin>"
    digest = slips.sheet_digest(text) if orders is not None else None
    try:
        sheet = read_sheet(board, state, text, where)
        if orders is not None:  # (the slips first that say most: a repeated sheet also holds another phase's orders)
            if not same_sheet and digest is not None:  # (it is: the sheet came from a file)
                slips.check_not_repeated(board, state, digest, where)
            slips.check_board_fits(board, sheet, where)
            check_sheet(sheet, strict, where)
            slips.check_something_read(board, state, sheet, where)
        turn = play_turn(board, state, sheet, strict=strict, file=where)
        keep_for_rewind(board, state, turn.next_state, digest)
        reached = turn.natural_end()
        ended = RecordedEnd(reached) if reached is not None else None  # the rules' own end: the file records it
        report_data = turn.report_json() if as_json else {}
        report_text = "" if as_json else turn.report_text()
        if ended is not None and as_json:
            report_data["end"] = ended.to_data(turn.rules)
        elif ended is not None:
            report_text += "\n" + ended.report(turn.rules)
        next_text = dump_game(board, turn.next_state, game if in_place else output, ended)
    except SheetRefused as exc:
        for p in sheet.problems:  # (the lines behind the refusal, or beside it)
            click.echo(f"{where}:{p}", err=True)
        fail(exc)
    except AdjudicatorError as exc:
        fail(exc.located(file=exc.file or game))
    if as_json:
        click.echo(json.dumps(report_data, indent=2))
    else:
        click.echo(report_text, nl=False)
    target = game if in_place else output
    if target:
        if in_place:
            _keep_backup(game)
        _write(target, next_text)
        if not as_json:
            click.echo(f"wrote {target}" + (f" (backup: {game}.bak; undo with: adjudicator rewind {game})"
                                            if in_place else ""))


@main.command()
@click.argument("game", type=click.Path())
@click.option("--to", "phase", help="Go back to before this judged phase (as the report names it, e.g. "
              "'Fall 2010 Movement'); default: the last one.")
def rewind(game: str, phase: str | None) -> None:
    """Put the game back as it was before its last judged phase (or before --to PHASE), in place.

    The history keeps the position each phase was judged from; the file is replaced atomically and GAME.bak
    keeps it as it was, so a rewind is undone by copying GAME.bak back."""
    loaded = _load(game)
    board, state = loaded.board, loaded.state
    try:
        before, label = rewound(board, state, phase, game)
        text = dump_game(board, before, game)
    except AdjudicatorError as exc:
        fail(exc.located(file=exc.file or game))
    _keep_backup(game)
    _write(game, text)
    undone = "; the game's recorded end is undone with it" if loaded.end is not None else ""
    click.echo(f"rewound {game}: back at {label}, as it was before that phase was judged{undone} "
               f"(backup: {game}.bak)")


@main.command("parse")
@click.argument("game", type=click.Path())
@click.argument("orders", type=click.Path(allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def parse_sheet(game: str, orders: str, as_json: bool) -> None:
    """Read an order sheet (`-`: standard input) against the game's position, judging and writing nothing.

    Prints each order as understood and each line that is not one; exits 1 if there are such lines."""


    board, state = _load_game(game, orders)
    rules = rules_of(board)
    text = _sheet_text(orders)
    try:
        sheet = read_sheet(board, state, text, orders)
    except AdjudicatorError as exc:
        fail(exc)
    refusal = sheet_refusal(sheet, strict=False, file=orders)  # (the lines that are not orders are listed below)
    if refusal is not None:
        fail(refusal)
    orders_read = [sheet.read_for(rules.order_json(o)) for o in sheet.orders]
    if as_json:
        click.echo(json.dumps({"orders": orders_read, "notes": sheet.notes,
                               "sheet_problems": [p.to_json() for p in sheet.problems]}, indent=2))
    else:
        for data in orders_read:
            power = data.get("power")
            header = data.get("header_line")
            read_for = f" ({power}{f', the header on line {header}' if header else ''})" if power else ""
            click.echo(f"line {data.get('line') or '?'}{read_for}: {data.get('canonical') or data['text']}"
                       + (f"  [{data['hint']}]" if data.get("hint") else ""))
        for note in sheet.notes:
            click.echo(f"note: {note}")
        for problem in sheet.problems:
            click.echo(f"{orders}:{problem}")
        click.echo(f"{len(sheet.orders)} order(s) read, {len(sheet.problems)} line(s) not read")
    sys.exit(1 if sheet.problems else 0)


@main.command()
@click.argument("game", type=click.Path())
def show(game: str) -> None:
    """Print the position of a game file."""
    loaded = _load(game)
    rules = rules_of(loaded.board)
    click.echo(rules.position_text(loaded.board, loaded.state), nl=False)
    if loaded.end is not None:
        try:
            click.echo("\n" + loaded.end.report(rules), nl=False)
        except AdjudicatorError as exc:
            fail(exc.located(file=exc.file or game))


@main.command("orders")
@click.argument("game", type=click.Path())
@click.option("--power", help="Only this power.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@_RULES_OPTION
def list_orders(game: str, power: str | None, as_json: bool, rules_text: str | None) -> None:
    """List every legal order of every unit (or build and removal) for the game's phase."""


    board, state = _load_game(game, rules_text=rules_text)
    rules = rules_of(board)
    try:
        data = rules.legal_orders(board, state, power)["powers"]
    except AdjudicatorError as exc:
        fail(exc.located(file=exc.file or game))
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{board.title}: {rules.phase_name(state) or ''}".rstrip(": "))
    for p, units in data.items():
        click.echo(f"{p}:")
        if not units:
            click.echo("  (nothing to order)")
        for unit, unit_orders in units.items():
            click.echo(f"  {unit}: {len(unit_orders)} legal")
            for o in unit_orders:
                click.echo(f"    {o}")


@main.command()
@click.argument("game", type=click.Path())
@click.option("--orders", "results_path", type=click.Path(),
              help="A phase report as JSON (`adjudicate GAME ORDERS --json`), drawn on GAME's position.")
@click.option("-o", "--output", required=True, type=click.Path(), help="board.png or board.svg")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@click.option("--width", default=1000, show_default=True, type=click.IntRange(200, 4000),
              help="PNG width in pixels (at most 4000, as in the API: a picture's memory grows with its square).")
def render(game: str, results_path: str | None, output: str, force: bool, width: int) -> None:
    """Draw the game's position (and a phase's orders) as PNG or SVG. A board's drawing (its shapes, computed
    once for a board without one stored) is kept in the user's cache folder (~/.cache/adjudicator/drawings, or
    the folder ADJUDICATOR_DRAWINGS names) for the next command."""


    suffix = Path(output).suffix.lower()
    if suffix not in (".png", ".svg"):
        fail(AdjudicatorError("the output must end in .png or .svg", file=output))
    _refuse_overwrite(output, force)
    board, state = _load_game(game)
    results = None
    if results_path:
        try:
            results = json.loads(read_text(results_path))
        except AdjudicatorError as exc:
            fail(exc)
        except json.JSONDecodeError as exc:
            fail(AdjudicatorError(f"not valid JSON: {exc.msg}", file=results_path, line=exc.lineno, column=exc.colno))
    try:  # a board's drawing computed here is kept in the user's cache (unless the operator names a folder)
        with using_shelves([user_shelf()] if folder_shelf() is None else []):
            image = rules_of(board).render(board, state, results, suffix[1:], width)
    except AdjudicatorError as exc:
        fail(exc.located(file=exc.file or game))
    _write(output, image)
    click.echo(f"wrote {output}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="Worker processes.")
@click.option("--worker-class", default="gevent", show_default=True, type=click.Choice(["gevent", "gthread", "sync"]),
              help="gevent: an event loop per worker, so slow or idle clients hold no worker (the default); "
                   "gthread or sync only behind a proxy that buffers whole requests (README: Production set-up).")
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Threads per worker (gthread).")
@click.option("--connections", default=1000, show_default=True, type=click.IntRange(1, 100000),
              help="Open connections per worker (gevent); more wait in the listen backlog.")
@click.option("--timeout", default=30, show_default=True, type=click.IntRange(1, 3600),
              help="Seconds a request may take (reading, judging, answering) before its connection is closed "
                   "or its worker restarted.")
def serve(host: str, port: int, workers: int, worker_class: str, threads: int, connections: int, timeout: int) -> None:
    """Serve the JSON API with gunicorn (a production WSGI server), with request limits and timeouts."""
    try:
        require("server", "adjudicator serve")
        from adjudicator.hosted.storage import database_url  # (the server extra: loaded only to serve)

        require_driver(database_url())  # a PostgreSQL URL fails here, not at the first hosted request
    except MissingExtra as exc:
        fail(exc)
    from api.server import serve as run  # (the server extra: loaded only to serve)

    run(host=host, port=port, workers=workers, threads=threads, timeout=timeout, worker_class=worker_class,
        connections=connections)


@main.command()
@click.argument("end", type=click.Path())
@click.option("--system", help="The scoring system: draw-size, sum-of-squares, c-diplo, carnage, manorcon (or a name "
                               "of --systems); for a game file, by default the one its end records, else draw size "
                               "(the Arctic games: their own points).")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override one of the system's parameters, e.g. --set solo=73 (repeatable).")
@click.option("--systems", "systems_file", type=click.Path(), help="Read the systems from this file (scoring.yaml's "
                                                                   "form: a league's own) instead of the shipped ones.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON (rounded and exact).")
def score(end: str, system: str | None, settings: tuple[str, ...], systems_file: str | None, as_json: bool) -> None:
    """Score a game's end: an end record (a YAML or JSON file: examples/end-draw.yaml), or a game file, by its
    recorded end or, for a game that has not ended, as if it ended now (a draw of every survivor)."""
    try:
        text = read_text(end)
        data = load_yaml_text(text, end)
        chosen = None
        if system is not None:
            chosen = scoring.choose(scoring.choice_of(system, settings),
                                    scoring.load_systems(systems_file) if systems_file else None)
        elif settings:
            raise AdjudicatorError("--set changes a system's parameters: name the system with --system")
        if isinstance(data, dict) and "variant" in data:  # a game file
            check_whole(text, end)
            _score_game(game_file_from_data(data, end), chosen, as_json)
            return
        if chosen is None:
            raise AdjudicatorError("an end record is scored by a system: give --system (draw-size, sum-of-squares, "
                                   "c-diplo, carnage, manorcon)", file=end)
        ended = GameEnd.from_json(data, file=end)
        click.echo(json.dumps(scoring.score_json(ended, chosen), indent=2) if as_json
                   else scoring.score_table(ended, chosen), nl=as_json)
    except AdjudicatorError as exc:
        fail(exc)


def _score_game(game: GameFile, chosen: scoring.Scoring | None, as_json: bool) -> None:
    """A game file's scores: its recorded end's, else the end its rules reach at this position, else a draw of
    every survivor (DIAS) as if the game ended now, the output saying which."""
    rules = rules_of(game.board)
    if game.end is not None:
        recorded, how = game.end, "recorded"
    else:
        reached = rules.natural_end(game.board, game.state)
        recorded = RecordedEnd(reached or rules.end_as(game.board, game.state, EndKind.DRAW))
        how = "reached" if reached is not None else "if-ended-now"
    system = chosen or recorded.system_for(rules)
    scores = rules.scores(recorded.end, system)
    note = {"recorded": "",
            "reached": "The game has reached its end by the rules (not recorded in the file yet).\n",
            "if-ended-now": "The game has not ended: the scores if it ended now, as a draw of every survivor "
                            "(DIAS).\n"}[how]
    if as_json:
        data = scoring.score_json(recorded.end, system, scores)
        click.echo(json.dumps({**data, "ended": how != "if-ended-now", "how": how}, indent=2))
        return
    title = f"{system.title} ({system.name})" if system else "The game's own result"
    click.echo(note + scoring.scores_table(recorded.end, scores, title, rules.year_word), nl=False)


_END_KINDS = {"--draw": EndKind.DRAW, "--dias": EndKind.DRAW, "--concede-to": EndKind.CONCESSION,
              "--stopped": EndKind.STOPPED, "--abandoned": EndKind.ABANDONED}


@main.command("end")
@click.argument("game", type=click.Path())
@click.option("--draw", metavar="A,B,C", help="A draw of these powers (each a survivor), e.g. --draw England,France.")
@click.option("--dias", is_flag=True, help="A draw of every survivor.")
@click.option("--concede-to", "conceded_to", metavar="POWER", help="Every other survivor concedes to this power.")
@click.option("--stopped", is_flag=True, help="Stopped by the game master or at a year limit (scored as a draw of "
                                              "every survivor).")
@click.option("--abandoned", is_flag=True, help="Every seat abandoned (scored as a draw of every survivor).")
@click.option("--scoring", "system", help="The scoring system the end is scored by (recorded with it): draw-size, "
                                          "sum-of-squares, c-diplo, carnage, manorcon; default draw size.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="With --scoring: override one of the system's parameters, e.g. --set solo=73 (repeatable).")
@click.option("-o", "--output", type=click.Path(), help="Write the ended game file here (default: in place, keeping "
                                                        "GAME.bak).")
@click.option("--force", is_flag=True, help="With -o: overwrite an existing file.")
def end_game(game: str, draw: str | None, dias: bool, conceded_to: str | None, stopped: bool, abandoned: bool,
             system: str | None, settings: tuple[str, ...], output: str | None, force: bool) -> None:
    """Record how the game ended in its game file (a draw agreed by mail, a concession, a time limit): the end,
    each power's centres and year of elimination, the scoring system; print the end and its scores.

    An ended game is judged no more; its position and phases stay readable (show, score, render)."""
    given = [flag for flag, on in (("--draw", draw is not None), ("--dias", dias), ("--concede-to", conceded_to is not None),
                                   ("--stopped", stopped), ("--abandoned", abandoned)) if on]
    if len(given) != 1:
        fail(AdjudicatorError("say how the game ended with one of --draw A,B,C, --dias, --concede-to POWER, "
                              "--stopped, --abandoned" + (f" (not {' and '.join(given)})" if given else "")))
    if output and Path(output).resolve() == Path(game).resolve():
        output = None  # (-o naming the game file itself: in place, as without it)
    _refuse_overwrite(output, force)
    loaded = _load(game)
    board, state = loaded.board, loaded.state
    rules = rules_of(board)
    if loaded.end is not None:
        fail(GameEnded(f"the game has already ended ({scoring.describe(loaded.end.end, rules.year_word)}); delete "
                       "the file's `end:` key to declare another end", file=game))
    powers = ([p.strip() for p in draw.split(",")] if draw is not None else
              [conceded_to] if conceded_to is not None else [])
    try:
        if settings and system is None:
            raise AdjudicatorError("--set changes a system's parameters: name the system with --scoring")
        choice = None
        if system is not None:
            choice = scoring.choice_of(system, settings)
            choice["system"] = scoring.choose(choice).name  # (recorded by its name, not an alias)
        ended = RecordedEnd(rules.end_as(board, state, _END_KINDS[given[0]], powers), choice)
        report = ended.report(rules)
        target = output or game
        text = dump_game(board, state, target, ended)
    except AdjudicatorError as exc:
        fail(exc.located(file=exc.file or game))
    if output is None:
        _keep_backup(game)
    _write(target, text)
    click.echo(report, nl=False)
    click.echo(f"wrote {target}" + (f" (backup: {game}.bak)" if output is None else ""))


@main.group()
def games() -> None:
    """Hosted games (the database is ADJUDICATOR_DATABASE_URL, or the SQLite file ADJUDICATOR_DATABASE)."""


@games.command("tick")
@click.option("--database", help="A database URL, or a SQLite file's path (default: the settings of `adjudicator serve`).")
def games_tick(database: str | None) -> None:
    """Judge every hosted phase past its deadline, send due webhooks and wait for them (run it from cron). It
    never creates a database: one it cannot find or reach is one line and exit status 2."""
    try:
        require("server", "adjudicator games tick", ("sqlalchemy", "alembic"))  # hosted games, not the HTTP parts
        from adjudicator.hosted.tick import run  # (the server extra: loaded only for hosted games)

        escape_to_stderr()  # a webhook receiver's or a player's words in a log line stay one line
        stopped = run(database, click.echo)
        sys.exit(0 if stopped is None else EXIT_STATUS[stopped])
    except MissingExtra as exc:  # the server extra, or a PostgreSQL URL without the postgres extra
        fail(exc)


@main.group()
def variant() -> None:
    """Inspect variant files."""


@variant.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path())
def variant_check(files: tuple[str, ...]) -> None:
    """Report what makes a variant file wrong, each problem with its line."""
    total = 0
    for f in files:
        problems = check_variant_file(f)
        for p in problems:
            click.echo(str(p))
        errors = sum(not p.warning for p in problems)
        if not errors:  # warnings only: the board is played as it is
            warned = len(problems)
            click.echo(f"{f}: OK" + (f" ({warned} warning{'s' * (warned > 1)})" if warned else ""))
        total += errors
    if total:
        click.echo(f"{total} problem(s) found")
    sys.exit(1 if total else 0)


@variant.command("list")
def variant_list() -> None:
    """The shipped variants: players, supply centres, the game, the rule options and where each comes from."""
    for s in variant_summaries():
        opts = s.get("options") or {}
        facts = [f"{s['players']} players" if "players" in s else None,
                 f"{s['centres']} centres" if "centres" in s else None,
                 f"rules {s['rules']}",
                 f"builds {opts['builds']}" if opts.get("builds", "home") != "home" else None,
                 f"victory {opts['victory']}" if "victory" in opts else None,
                 f"starts {s['start']}" if "start" in s else None]
        click.echo(f"{s['name']:<22} {s['title']}: " + ", ".join(f for f in facts if f))
        if s.get("origin"):
            click.echo(f"{'':<22} from {s['origin']}")


@variant.command("import")
@click.argument("map_file", type=click.Path())
@click.option("-o", "--output", type=click.Path(), required=True, help="The board file to write (its name is the board's).")
@click.option("--picture", type=click.Path(), help="An SVG of the map to take drawing positions from "
              "(default: one named like the map beside it or in svg/).")
@click.option("--terms", default="not stated in the map file: check the map's own licence before sharing the board",
              show_default=False, help="The terms the map is used under, written in the board's header.")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
def variant_import(map_file: str, output: str, picture: str | None, terms: str, force: bool) -> None:
    """Read a DPjudge map file (.map, the format of the diplomacy package's maps) into a board file; what the
    board format cannot say is reported by line, and the board is checked."""
    from adjudicator.games.diplomacy.importers import import_map  # (Diplomacy's: loaded only by the command that needs it)

    _refuse_overwrite(output, force)
    try:
        imported = import_map(map_file, picture=picture, name=Path(output).stem, terms=terms)
    except AdjudicatorError as exc:
        fail(exc)
    _write(output, imported.to_yaml())
    data = imported.data
    click.echo(f"wrote {output}: {len(data['provinces'])} spaces, {len(data['borders'])} borders, "
               f"{len(data['powers'])} powers" + (f", positions from {imported.picture}" if imported.picture else ""))
    for note in imported.notes:
        click.echo(f"note: {note}")
    problems = check_variant_file(output)
    for p in problems:
        click.echo(str(p))
    errors = any(not p.warning for p in problems)
    if not errors:  # the board's drawing computed once, here, and kept beside it: no picture computes it again
        from adjudicator.catalogue import board_from_path  # (as the import above: the command that needs it)
        from adjudicator.games.diplomacy.picture.stored import write_stored  # (Diplomacy's, and matplotlib's)

        try:
            click.echo(f"wrote {write_stored(board_from_path(output)[0])} (the board's drawing)")
        except (AdjudicatorError, OSError) as exc:
            click.echo(f"note: the board's drawing was not stored: {exc}")
    sys.exit(1 if errors else 0)



@main.command("convert")
@click.argument("source", type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(), help="The file to write (`-`: standard output).")
@click.option("--to", "target", type=click.Choice(["mila", "fair", "game"]),
              help="The format to write: mila (the diplomacy package's saved game), fair (FAIR's game JSON v1.0), "
                   "game (this project's game file); default: by the output's suffix (.yaml game, .json mila).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
def convert(source: str, output: str, target: str | None, force: bool) -> None:
    """Convert one game between the field's records and this project's game file, with its whole history.

    SOURCE is a saved game of the diplomacy package or a FAIR game JSON (a .json file, or the first game of a
    .jsonl file, compressed or not), or a game file (.yaml). What could not be carried over is printed as a note."""
    from adjudicator.games.diplomacy.records import convert as records  # (Diplomacy's records: loaded by the command that needs them)
    from adjudicator.games.diplomacy.records.dataset import items, read_item  # (the same)

    if output != "-":
        _refuse_overwrite(output, force)
    try:
        fmt = records.target_of(output, target)
        first = next(iter(items([source])), None)
        if first is None:
            raise AdjudicatorError(f"{source}: holds no game")
        if isinstance(first, AdjudicatorError):
            raise first
        game = read_item(first)
        text = records.written(game, fmt, None if output == "-" else output)
    except AdjudicatorError as exc:
        fail(exc)
    for note in game.notes:
        click.echo(f"note: {note}", err=True)
    if output == "-":
        click.echo(text, nl=False)
    else:
        _write(output, text)
        click.echo(f"wrote {output} ({fmt}: {len(game.phases)} phases)", err=True)


@main.command("replay")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@_RULES_OPTION
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Replay with this many local processes.")
@click.option("-o", "--output", type=click.Path(), help="Write the JSONL records here (default: standard output, "
                                                        "the summary then on standard error).")
@click.option("--every-phase", is_flag=True, help="A record for every phase judged, not only those that differ.")
@click.option("--cluster", "cluster", metavar="ADDRESS",
              help="Replay on a Dask cluster: its scheduler's address (tcp://HOST:8786), or `local` / `local:N` "
                   "for one of N worker processes started on this machine (the cluster extra).")
@click.option("--cluster-timeout", type=click.FloatRange(0.5, 3600), default=10, show_default=True,
              metavar="SECONDS", help="How long to wait for the cluster's scheduler to answer, and for a worker.")
def replay(paths: tuple[str, ...], rules_text: str | None, workers: int, output: str | None, every_phase: bool,
           cluster: str | None, cluster_timeout: float) -> None:
    """Replay every phase of every game of a dataset through this judge and compare with the recorded next phase.

    PATHS are JSONL files (plain, .gz or .zst), JSON games, game files, or folders of them. Every difference is
    classified (a rule set or DATC answer under which the record is right, a phase judged by hand, or unexplained)
    and written as a JSONL record; a summary table follows. Exits 0 when no difference is unexplained and every
    game was read, 1 otherwise; Ctrl-C prints the summary so far. With --cluster the games are replayed in
    batches on a Dask cluster's workers (which need this package, not the files), the records in the same order."""
    from contextlib import ExitStack

    from adjudicator.games.diplomacy.records.dataset import Summary, replay_all  # (the command's own: loaded when run)
    from adjudicator.games.diplomacy.rulebook import rulebook_from_text  # (likewise)

    stack = ExitStack()
    try:
        rulebook_from_text(rules_text, what="--rules")  # (refused here, once, not in every game)
        if cluster is not None:
            if workers > 1:
                raise AdjudicatorError(f"--cluster and --workers {workers}: give one (the cluster's workers replay "
                                       "the games; --workers is for local processes without a cluster)")
            from adjudicator.games.diplomacy.records import cluster as on_cluster  # (only with --cluster)

            client = on_cluster.connect(on_cluster.parse_target(cluster), stack, cluster_timeout)
            runs = on_cluster.replay_on(client, paths, rules_text, every_phase)
        else:
            runs = replay_all(paths, rules_text, workers, every_phase)
    except AdjudicatorError as exc:
        stack.close()
        fail(exc)
    summary = Summary()
    sink = open(output, "w", encoding="utf-8") if output else sys.stdout
    bar = _progress(sys.stderr.isatty())
    interrupted = False
    try:
        for records in runs:
            for record in records:
                summary.add(record)
                if record["verdict"] != "game" or every_phase:
                    sink.write(json.dumps(record) + "\n")
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"{sum(summary.phases.values()) / max(bar.format_dict['elapsed'], 1e-9):.0f} "
                                    "phases/s", refresh=False)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
        if output:
            sink.close()
        else:
            sink.flush()
        getattr(runs, "close", lambda: None)()  # (its batches or processes ended before their cluster or pool)
        stack.close()  # (the cluster's client, and a local cluster with it)
    table = ("interrupted: the summary so far\n" if interrupted else "") + summary.table()
    click.echo(table, nl=False, err=not output)
    sys.exit(130 if interrupted else 1 if summary.phases["unexplained"] or summary.errors else 0)


def _progress(on_terminal: bool):  # -> tqdm | None
    """A progress bar of games (and phases per second) on a terminal; none in a pipe or without tqdm."""
    if not on_terminal:
        return None
    try:
        from tqdm import tqdm  # (the records extra's, optional: no bar without it)
    except ImportError:
        return None
    return tqdm(unit=" games", file=sys.stderr, dynamic_ncols=True)


if __name__ == "__main__":  # pragma: no cover
    main()
