"""Every Python package of the source tree is listed for installation (a plain `pip install .` ships it)."""

from __future__ import annotations

import tomllib

from tests.helpers import ROOT


def test_every_package_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("adjudicator/**/__init__.py")}
    found |= {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("api/**/__init__.py")}
    assert found <= listed, sorted(found - listed)
    for data in ("adjudicator.variants", "adjudicator.grammar"):
        assert data in listed
