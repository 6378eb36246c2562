"""The `adjudicator` command: a thin shell over the library (case runner, game master's tool, server)."""

from __future__ import annotations

import sys

import click

from adjudicator import __version__
from adjudicator.errors import AdjudicatorError


def fail(exc: AdjudicatorError) -> None:
    """Print an input error plainly and exit with status 2."""
    click.echo(f"error: {exc}", err=True)
    sys.exit(2)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="adjudicator")
def main() -> None:
    """Diplomacy-variant adjudicator: judge phases, run DATC case files, serve a JSON API."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-v", "--verbose", is_flag=True, help="Also list passing cases and warnings.")
def datc(paths: tuple[str, ...], verbose: bool) -> None:
    """Run DATC-style case files (files or folders) and report failing cases."""
    from adjudicator.cases.runner import run_files

    outcomes, errors = run_files(paths)
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
    failed += len(errors)
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


def _load_game(path: str):
    from adjudicator.gamefile import read_game_file

    try:
        return read_game_file(path)
    except AdjudicatorError as exc:
        fail(exc)


@main.command()
@click.option("--variant", "variant_name", default="standard", show_default=True, help="Variant to start.")
@click.option("-o", "--output", type=click.Path(), help="Write the game file here (default: print it).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
def new(variant_name: str, output: str | None, force: bool) -> None:
    """Write the opening position of a variant as a game file."""
    from pathlib import Path

    from adjudicator.catalogue import is_diplomacy, load_variant
    from adjudicator.gamefile import dump_game, write_atomic
    from adjudicator.games import get_rules
    from adjudicator.state import opening_state

    try:
        board = load_variant(variant_name)
        start = opening_state(board) if is_diplomacy(board) else get_rules(board.rules).initial_state(board)
        text = dump_game(board, start)
    except AdjudicatorError as exc:
        fail(exc)
    if output is None:
        click.echo(text, nl=False)
        return
    if Path(output).exists() and not force:
        fail(AdjudicatorError("the file exists; use --force to overwrite it", file=output))
    write_atomic(output, text)
    click.echo(f"wrote {output}: {board.title}" + (f", {start.phase}" if is_diplomacy(board) else ""))


@main.command()
@click.argument("game", type=click.Path())
@click.argument("orders", type=click.Path(), required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("-o", "--output", type=click.Path(), help="Write the next game file here.")
@click.option("--in-place", is_flag=True, help="Replace the game file with the next one (keeps GAME.bak).")
@click.option("--strict", is_flag=True, help="Any line of the order sheet that is not an order is an error.")
def adjudicate(game: str, orders: str | None, as_json: bool, output: str | None, in_place: bool, strict: bool) -> None:
    """Judge the game's current phase with an order sheet; print the report and write the next position."""
    import json
    import shutil
    from pathlib import Path

    from adjudicator.gamefile import dump_game, write_atomic
    from adjudicator.orders.sheet import read_sheet
    from adjudicator.report import result_json, result_text
    from adjudicator.turn import play_game_turn, play_phase

    if output and in_place:
        fail(AdjudicatorError("use either -o/--output or --in-place, not both"))
    if output and Path(output).resolve() == Path(game).resolve():
        fail(AdjudicatorError("-o would overwrite the game file; use --in-place to replace it (a backup is kept)",
                              file=output))
    from adjudicator.catalogue import is_diplomacy

    board, state = _load_game(game)
    text = ""
    if orders is not None:
        try:
            text = Path(orders).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            fail(AdjudicatorError(f"cannot read the order sheet: {exc}", file=orders))
    if is_diplomacy(board):
        sheet = read_sheet(board, text, file=orders)
        if strict and sheet.problems:
            for p in sheet.problems:
                click.echo(f"{orders}:{p.line}: {p.reason}: {p.text.strip()!r}", err=True)
            sys.exit(2)
        try:
            result = play_phase(board, state, sheet)
        except AdjudicatorError as exc:
            fail(exc.located(file=exc.file or game))
        report = result_json(board, result, sheet) if as_json else result_text(board, result, sheet)
    else:
        from adjudicator.report import game_result_text

        try:
            result = play_game_turn(board, state, text, orders)
        except AdjudicatorError as exc:
            fail(exc.located(file=exc.file or orders))
        report = result.to_json() if as_json else game_result_text(board, result)
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(report, nl=False)
    target = game if in_place else output
    if target:
        if in_place:
            shutil.copy2(game, game + ".bak")
        write_atomic(target, dump_game(board, result.next_state))
        if not as_json:
            click.echo(f"wrote {target}" + (f" (backup: {game}.bak)" if in_place else ""))


@main.command()
@click.argument("game", type=click.Path())
def show(game: str) -> None:
    """Print the position of a game file."""
    from adjudicator.catalogue import is_diplomacy
    from adjudicator.gamefile import dump_game
    from adjudicator.report import position_text

    board, state = _load_game(game)
    if is_diplomacy(board):
        click.echo(position_text(board, state), nl=False)
    else:
        click.echo(f"{board.title}\n\n" + dump_game(board, state), nl=False)


@main.command("orders")
@click.argument("game", type=click.Path())
@click.option("--power", help="Only this power.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def list_orders(game: str, power: str | None, as_json: bool) -> None:
    """List every legal order of every unit (or build and removal) for the game's phase."""
    import json

    from adjudicator.names import AmbiguousName, UnknownName
    from adjudicator.orders.legal import legal_orders

    from adjudicator.catalogue import is_diplomacy

    board, state = _load_game(game)
    if not is_diplomacy(board):
        fail(AdjudicatorError(f"legal-order lists are not available for {board.title}; see its rules file", file=game))
    powers = list(board.powers)
    if power:
        try:
            powers = [board.power_names.lookup(power, "power")]
        except (UnknownName, AmbiguousName) as exc:
            fail(exc)
    data = {p: legal_orders(board, state, p) for p in powers}
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{board.title}: {state.phase}")
    for p, units in data.items():
        click.echo(f"{p}:")
        if not units:
            click.echo("  (nothing to order)")
        for unit, orders in units.items():
            click.echo(f"  {unit}: {len(orders)} legal")
            for o in orders:
                click.echo(f"    {o}")


@main.command()
@click.argument("game", type=click.Path())
@click.option("--orders", "results_path", type=click.Path(),
              help="A phase report as JSON (`adjudicate GAME ORDERS --json`), drawn on GAME's position.")
@click.option("-o", "--output", required=True, type=click.Path(), help="board.png or board.svg")
@click.option("--width", default=1000, show_default=True, type=click.IntRange(200, 8000), help="PNG width in pixels.")
def render(game: str, results_path: str | None, output: str, width: int) -> None:
    """Draw the game's position (and a phase's orders) as PNG or SVG."""
    import json
    from pathlib import Path

    from adjudicator.catalogue import is_diplomacy
    from adjudicator.gamefile import write_atomic
    from adjudicator.render import render_png, render_svg

    board, state = _load_game(game)
    if not is_diplomacy(board):
        fail(AdjudicatorError(f"board pictures are drawn for Diplomacy variants, not for {board.title}", file=game))
    suffix = Path(output).suffix.lower()
    if suffix not in (".png", ".svg"):
        fail(AdjudicatorError("the output must end in .png or .svg", file=output))
    results = None
    if results_path:
        try:
            results = json.loads(Path(results_path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            fail(AdjudicatorError(f"cannot read the results JSON: {exc}", file=results_path))
    try:
        image = render_svg(board, state, results) if suffix == ".svg" else render_png(board, state, results, width=width)
        write_atomic(output, image)
    except AdjudicatorError as exc:
        fail(exc)
    click.echo(f"wrote {output}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="Worker processes.")
def serve(host: str, port: int, workers: int) -> None:
    """Serve the JSON API with gunicorn (a production WSGI server)."""
    from api.server import serve as run

    run(host=host, port=port, workers=workers)


@main.group()
def variant() -> None:
    """Inspect variant files."""


@variant.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path())
def variant_check(files: tuple[str, ...]) -> None:
    """Report what makes a variant file wrong, each problem with its line."""
    from adjudicator.variant_check import check_variant_file

    total = 0
    for f in files:
        problems = check_variant_file(f)
        for p in problems:
            click.echo(str(p))
        if not problems:
            click.echo(f"{f}: OK")
        total += len(problems)
    if total:
        click.echo(f"{total} problem(s) found")
    sys.exit(1 if total else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
