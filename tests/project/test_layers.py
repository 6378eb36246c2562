"""The layout shows the design (issue 35): the kit never imports a game, a game imports only the kit and itself,
no import runs in a circle, an import inside a function says why on its line, and a file past 500 lines says
in its first lines why it is one file."""

from __future__ import annotations

import ast

import networkx as nx
import pytest

from tests.helpers import ROOT

PACKAGES = ("adjudicator", "api")
LONG = 510  # "about 500 lines" (issue 35)
LONG_MARK = "Long file:"  # the docstring's reason, in its first lines


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    is_package = MODULES[module].name == "__init__.py"
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> list[tuple[str, int, bool]]:
    """(imported module, line, inside a function) of every project import of a module."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(module, child)
                names = [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target for a in child.names]
            for name in names:
                while name and name not in MODULES:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    found.append((name, child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return found


def _game(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["adjudicator", "games"] else None


def _layer(module: str) -> str:
    if module.startswith("api") or module in ("adjudicator.cli", "adjudicator.__main__"):
        return "shell"
    if module.startswith("adjudicator.hosted"):
        return "hosted"
    return "game" if _game(module) else "kit"


def test_the_kit_imports_no_game_and_a_game_no_other_game() -> None:
    wrong = []
    for module in MODULES:
        for target, line, _ in _imports(module):
            layer, game = _layer(module), _game(module)
            if layer == "kit" and _layer(target) != "kit":
                wrong.append(f"{module}:{line} (kit) imports {target}")
            if layer == "game" and _game(target) not in (None, game):
                wrong.append(f"{module}:{line} ({game}) imports another game's {target}")
            if layer in ("game", "kit") and _layer(target) in ("hosted", "shell"):
                wrong.append(f"{module}:{line} imports {target}, a layer above it")
            if layer == "hosted" and _layer(target) == "shell":
                wrong.append(f"{module}:{line} imports {target}, a layer above it")
    assert not wrong, "imports that run up the layers:\n" + "\n".join(wrong)


def test_no_import_circle() -> None:
    graph = nx.DiGraph()
    for module in MODULES:
        for target, _, in_function in _imports(module):
            if not in_function and not target.startswith(module + "."):  # a package may import its own parts
                graph.add_edge(module, target)
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not circles, f"modules importing each other: {circles}"


def _package(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def test_no_package_circle() -> None:
    """Nor do two folders import each other (`orders/` and `judge/`, say), whichever modules carry the imports."""
    graph = nx.DiGraph()
    for module in MODULES:
        if _layer(module) == "shell":
            continue
        for target, line, _ in _imports(module):
            a, b = _package(module), _package(target)
            if a != b and not b.startswith(a + ".") and not a.startswith(b + "."):
                graph.add_edge(a, b)
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not circles, f"folders importing each other: {circles}"


def test_an_import_inside_a_function_says_why() -> None:
    silent = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for target, line, in_function in _imports(module):
            if in_function and "#" not in lines[line - 1]:
                silent.append(f"{path.relative_to(ROOT)}:{line}: {lines[line - 1].strip()}")
    assert not silent, "imports inside functions without their reason on the line:\n" + "\n".join(silent)


@pytest.mark.parametrize("module", [m for m, p in MODULES.items() if len(p.read_text().splitlines()) > LONG])
def test_a_long_file_says_why_it_is_one(module: str) -> None:
    head = "\n".join(MODULES[module].read_text(encoding="utf-8").splitlines()[:15])
    assert LONG_MARK in head, f"{MODULES[module].relative_to(ROOT)} is over {LONG} lines: say why in its docstring"


def test_the_checks_see_the_layers() -> None:
    """The checks above read real imports: Diplomacy's rules import its judge, the API imports the kit."""
    assert any(t == "adjudicator.games.diplomacy.phase" for t, _, _ in _imports("adjudicator.games.diplomacy"))
    assert _layer("adjudicator.catalogue") == "kit" and _layer("api.routes") == "shell"
