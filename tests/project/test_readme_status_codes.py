"""Issue 34, finding 7: the README's status codes are the real ones. Its table holds every code the API's code
raises and the OpenAPI document lists (which the tests hold every answer to), and no other: a code the
README names that nothing answers, or one the service answers that the README leaves out, fails here."""

from __future__ import annotations

import ast
import re

from tests.api_helpers import DOC
from tests.helpers import ROOT

from adjudicator.refusals import Kind
from api.problems import STATUS

# Written by the HTTP layers, not the application (tested in tests/api/test_api.py and tests/api/test_hostile_server.py).
BY_THE_SERVER = {405, 414, 431}


def _readme_table() -> dict[int, str]:
    text = (ROOT / "README.md").read_text()
    table = text[text.index("Status codes, of the stateless endpoints"):]
    table = table[table.index("| code | when |"):]
    table = table[:table.index("\n\n")]
    rows = {}
    for line in table.splitlines()[2:]:
        codes, when = line.strip("|").split("|", 1)
        for code in re.findall(r"\d{3}", codes):
            rows[int(code)] = when.strip()
    return rows


def _raised_in_code() -> set[int]:
    """The statuses of every `Problem(...)` and `HostedError(...)` the API and the hosted service raise (and
    the board and position loader they share): a refusal's kind (`Kind.X`), by the API's one table."""
    found = set()
    paths = [*(ROOT / "api").rglob("*.py"), *(ROOT / "adjudicator/hosted").rglob("*.py"), ROOT / "adjudicator/loading.py"]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Problem", "HostedError", "Refused")
                    and node.args):
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    found.add(first.value)
                elif isinstance(first, ast.Attribute) and getattr(first.value, "id", None) == "Kind":
                    found.add(STATUS[Kind[first.attr]])
    return found


def _documented() -> set[int]:
    return {int(code) for ops in DOC["paths"].values() for op in ops.values() for code in op["responses"]
            if not code.startswith("2")}


def test_the_readme_table_names_every_code_the_service_answers():
    table = set(_readme_table())
    assert _raised_in_code() <= table, _raised_in_code() - table
    assert _documented() <= table, _documented() - table


def test_every_code_the_readme_table_names_is_answered():
    table = set(_readme_table())
    real = _raised_in_code() | _documented() | BY_THE_SERVER
    assert table <= real, table - real


def test_the_table_says_what_retry_after_comes_with():
    table = _readme_table()
    assert "Retry-After" in table[429] and "Retry-After" in table[503] and "/readyz" in table[503]
    for path, ops in DOC["paths"].items():
        for method, op in ops.items():
            for code in ("429", "503"):
                if code in op["responses"]:
                    assert "Retry-After" in op["responses"][code].get("headers", {}), (method, path, code)
