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


if __name__ == "__main__":  # pragma: no cover
    main()
