"""Every shipped board, the other three games included, drawn as PNG and SVG through each shell: the command
line (`render`), the API (`/v1/render`) and a hosted game's picture endpoint."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from tests.hosted.helpers import make_api

from adjudicator.catalogue import variant_names
from adjudicator.cli import main
from api import create_app

RACE_SETUP = ["players Red, Blue; start Red", "river T14 T09 T28 T23 T27"]
CLIENT = create_app().test_client()


def _is_picture(data: bytes, fmt: str, marker: bytes) -> None:
    if fmt == "png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    else:
        assert data.lstrip().startswith(b"<?xml") and marker in data


@pytest.mark.parametrize("variant", variant_names())
def test_the_command_line_draws_every_board(tmp_path, variant):
    game = tmp_path / "g.yaml"
    runner = CliRunner()
    assert runner.invoke(main, ["new", "--variant", variant, "-o", str(game)]).exit_code == 0
    for fmt in ("png", "svg"):
        out = tmp_path / f"board.{fmt}"
        r = runner.invoke(main, ["render", str(game), "-o", str(out), "--width", "300"])
        assert r.exit_code == 0, r.output
        _is_picture(out.read_bytes(), fmt, b'id="legend"')


@pytest.mark.parametrize("variant", variant_names())
def test_the_api_draws_every_board(variant):
    state = CLIENT.get(f"/v1/variants/{variant}/start").get_json()
    for fmt in ("png", "svg"):
        r = CLIENT.post("/v1/render", json={"state": state, "format": fmt, "width": 300})
        assert r.status_code == 200 and r.mimetype == f"image/{'svg+xml' if fmt == 'svg' else 'png'}", r.data[:300]
        _is_picture(r.data, fmt, b'id="legend"')


@pytest.mark.parametrize("variant", variant_names())
def test_a_hosted_game_draws_every_board(tmp_path, variant):
    api = make_api(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    created = api.create(variant=variant, **({"seats": ["Red", "Blue"]} if variant == "arctic-race" else {}))
    gid, gm = created["id"], created["game_master_token"]
    if variant == "arctic-race":  # a race is set up before it is played
        api.submit(gid, gm, RACE_SETUP)
    api.judge(gid, gm)
    for fmt in ("png", "svg"):
        picture = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", gm, game_id=gid, phase_no=1,
                           query=f"?format={fmt}&width=300")
        assert picture.status_code == 200, picture.get_data(as_text=True)[:300]
        _is_picture(picture.data, fmt, b'id="legend"')


def test_bad_results_are_refused_naming_the_field():
    state = CLIENT.get("/v1/variants/standard/start").get_json()
    for results, pointer in (({"orders": 5}, "/results/orders"), ([{"status": 3}], "/results/0/status"),
                             ({"destroyed": [{"location": 7}]}, "/results/destroyed/0/location"), ("x", "/results")):
        r = CLIENT.post("/v1/render", json={"state": state, "results": results, "format": "svg"})
        assert r.status_code == 400 and r.get_json()["pointer"] == pointer, (results, r.get_json())
