"""The imported maps shipped in variants/: which map file of the `diplomacy` package each is made from.

    python -m adjudicator.games.diplomacy.importers.shipped [variants/]    # write them again (needs the diplomacy package)

The package's map files are read where it is installed, never copied into this project; the board data the
importer makes from them is shipped, naming the source and the terms in each file's header. The tests check
that each shipped file is exactly what the importer makes from the installed package.
"""

from __future__ import annotations

import sys
from pathlib import Path

from adjudicator.games.diplomacy.importers.dpjudge import import_map

# board name -> (map file in the package's maps/ folder, title)
SHIPPED = {
    "ancmed": ("ancmed.map", "Ancient Mediterranean"),
    "modern": ("modern.map", "Modern Diplomacy"),
    "pure": ("pure.map", "Pure Diplomacy"),
    "world": ("world.map", "World Diplomacy"),
}

TERMS = ("the diplomacy package, its map files included, is distributed under the GNU Affero General Public "
         "License v3.0 (https://www.gnu.org/licenses/agpl-3.0.html); this board is derived from its map file (names, "
         "borders, centres, starting units, picture spots) and is shipped under those terms, naming its source")


def package_maps() -> Path:
    """The maps/ folder of the installed `diplomacy` package (ImportError when it is not installed)."""
    import importlib.util

    spec = importlib.util.find_spec("diplomacy")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the diplomacy package is not installed: pip install '.[bench]'")
    return Path(list(spec.submodule_search_locations)[0]) / "maps"


def build(name: str, maps: Path | None = None) -> str:
    """The variant file of a shipped imported map, made from the installed package."""
    from importlib.metadata import version

    maps = maps or package_maps()
    file, title = SHIPPED[name]
    source = (f"maps/{file} of the diplomacy package {version('diplomacy')} (https://github.com/diplomacy/diplomacy), "
              "a DPjudge map file")
    imported = import_map(maps / file, name=name, title=title, source=source, terms=TERMS)
    return imported.to_yaml()


def main(argv: list[str] | None = None) -> int:
    """Write every shipped imported map into a folder (default: the repository's variants/); 0 when written, 2
    (with the reason) when the folder is not one or the diplomacy package is not installed."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m adjudicator.games.diplomacy.importers.shipped",
                                     description="Write the shipped imported maps again, from the installed "
                                                 "diplomacy package's map files.")
    parser.add_argument("folder", nargs="?", type=Path, default=Path(__file__).resolve().parents[2] / "variants",
                        help="where to write them (default: the repository's variants/)")
    folder = parser.parse_args(argv).folder
    if not folder.is_dir():
        print(f"error: {folder}: no such folder", file=sys.stderr)
        return 2
    try:
        maps = package_maps()
    except ImportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name in SHIPPED:
        try:
            (folder / f"{name}.yaml").write_text(build(name, maps), encoding="utf-8")
        except OSError as exc:
            print(f"error: {folder / f'{name}.yaml'} could not be written: {exc}", file=sys.stderr)
            return 1
        print(f"wrote {folder / f'{name}.yaml'}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
