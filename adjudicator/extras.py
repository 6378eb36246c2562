"""The optional parts of the install (pyproject.toml's extras): a feature whose extra is not installed says so in
one line, naming the pip command that brings it, instead of failing on an import deep inside."""

from __future__ import annotations

import importlib

from adjudicator.errors import AdjudicatorError

PACKAGE = "arctic-adjudicator"
# The modules each extra brings (the distributions are listed in pyproject.toml under the same names).
MODULES: dict[str, tuple[str, ...]] = {
    "server": ("flask", "jsonschema", "gunicorn", "gevent", "sqlalchemy", "alembic"),
    "postgres": ("psycopg",),
    "fast-pictures": ("skia",),  # never required: without it resvg draws the pictures (render/raster.py)
    "records": ("zstandard", "tqdm"),  # `adjudicator replay`: zstd datasets, the progress bar on a terminal
    "env": ("pettingzoo", "gymnasium", "numpy"),  # the research environment (adjudicator/env.py)
    "cluster": ("dask", "distributed"),  # `adjudicator replay --cluster`: a dataset replayed on a Dask cluster
}


class MissingExtra(AdjudicatorError):
    """A feature asked for whose optional dependencies (an extra) are not installed."""


def install_command(extra: str) -> str:
    """The pip command that installs an extra."""
    return f'pip install "{PACKAGE}[{extra}]"'


def require(extra: str, feature: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise MissingExtra, naming `feature` and the pip command, unless every module of `extra` imports (or
    the ones of it named, those the feature uses)."""
    for module in MODULES[extra] if modules is None else modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise MissingExtra(f"{feature} needs the {extra} extra ({module} cannot be imported: {first_line(exc)}): "
                               f"{install_command(extra)}") from None


def require_driver(url: str) -> None:
    """A PostgreSQL database URL needs the postgres extra (psycopg); other URLs need nothing more."""
    if url.startswith(("postgresql", "postgres:")):
        require("postgres", "a PostgreSQL database (postgresql:// URL)")


def first_line(exc: BaseException) -> str:
    """An exception's first line of text (its class's name when it has none)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
