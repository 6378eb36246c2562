"""Issue 34, finding 4's last part: with the games' database down every hosted endpoint is a 503 with
`Retry-After` (it was a plain 500 with a traceback), `/readyz` says the database is unreachable (503) and
`/healthz`, the liveness check, stays 200. Down means a PostgreSQL URL of a closed port, a SQLite file whose
folder does not exist, and a SQLite file that worked and then went (its folder removed, the pool renewed)."""

from __future__ import annotations

import shutil

import pytest
from tests.api_helpers import DOC, check_response, free_port
from tests.helpers import ROOT
from tests.hosted.helpers import make_api, postgres_url

from adjudicator.hosted import storage
from api.schemas import SCHEMAS

# Each documented hosted operation, with a body it would take.
_BODIES = {("post", "/v1/games"): {"variant": "arctic"}, ("put", "/v1/games/{game_id}/orders"): {"orders": []},
           ("put", "/v1/games/{game_id}/ready"): {"ready": True}, ("post", "/v1/games/{game_id}/adjudicate"): {},
           ("put", "/v1/games/{game_id}/webhook"): {"url": None},
           ("put", "/v1/games/{game_id}/deadline"): {"at": None}, ("put", "/v1/games/{game_id}/vote"): {},
           ("post", "/v1/games/{game_id}/end"): {"kind": "stopped"}, ("post", "/v1/games/{game_id}/pause"): {},
           ("post", "/v1/games/{game_id}/resume"): {}, ("post", "/v1/games/{game_id}/seats/{power}/replace"): {},
           ("post", "/v1/games/{game_id}/messages"): {"to": "ALL", "text": "hello"}}
OPERATIONS = [(method, path) for path, ops in DOC["paths"].items() if path.startswith("/v1/games") for method in ops]


def _body(method: str, template: str) -> dict | None:
    """The operation's body, with the phase it is for when its schema takes one (a write names its phase)."""
    body = _BODIES.get((method, template))
    request = DOC["paths"][template][method].get("requestBody")
    if body is not None and request:
        schema = SCHEMAS[request["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
        if "phase_no" in schema.get("properties", {}):
            body = {**body, "phase_no": 1}
    return body


def _down_everywhere(api) -> None:
    for method, template in OPERATIONS:
        path = template.format(game_id="abcdefgh12345678", phase_no="1", power="Russia")
        answer = getattr(api.client, method)(path, json=_body(method, template),
                                             headers={"Authorization": "Bearer adj_whatever"})
        assert answer.status_code == 503, (method, path, answer.status_code, answer.get_data(as_text=True)[:300])
        assert answer.headers["Retry-After"] == "5" and answer.get_json()["retry_after"] == 5
        assert "try again" in answer.get_json()["detail"] and "Traceback" not in answer.get_data(as_text=True)
        check_response(template, method, answer)
    ready = api.client.get("/readyz")
    assert ready.status_code == 503 and ready.headers["Retry-After"] == "5", ready.get_json()
    check_response("/readyz", "get", ready)
    assert api.client.get("/healthz").status_code == 200  # the process is alive: do not restart it


def test_every_hosted_endpoint_is_a_503_when_postgresql_is_unreachable():
    _down_everywhere(make_api(f"postgresql://postgres@127.0.0.1:{free_port()}/games"))


def test_every_hosted_endpoint_is_a_503_when_the_sqlite_file_cannot_be_opened(tmp_path):
    _down_everywhere(make_api(f"sqlite:///{tmp_path / 'not-mounted' / 'games.sqlite3'}"))


def test_a_sqlite_database_that_goes_away_is_a_503_and_readiness_follows_it(tmp_path):
    folder = tmp_path / "volume"
    folder.mkdir()
    url = f"sqlite:///{folder / 'games.sqlite3'}"
    api = make_api(url)
    assert api.client.get("/readyz").status_code == 200
    game = api.create(variant="arctic")
    assert api.game(game["id"], game["tokens"]["Russia"])["phase_no"] == 1
    folder.rename(tmp_path / "unmounted")  # the volume gone; the pool renewed (a worker restarted...)
    storage.open_store(url).dispose()
    _down_everywhere(api)
    (tmp_path / "unmounted").rename(folder)  # back: ready again, the game as it was
    ready = api.client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["database"] == "reachable", ready.get_json()
    check_response("/readyz", "get", ready)
    assert api.game(game["id"], game["tokens"]["Russia"])["phase_no"] == 1


def test_readiness_is_503_on_a_database_that_lost_its_schema(tmp_path):
    """An emptied database answers `SELECT 1`, but every hosted request would fail: not ready."""
    folder = tmp_path / "volume"
    folder.mkdir()
    url = f"sqlite:///{folder / 'games.sqlite3'}"
    api = make_api(url)
    assert api.client.get("/readyz").status_code == 200
    storage.open_store(url).dispose()
    shutil.rmtree(folder)
    folder.mkdir()
    assert api.client.get("/readyz").status_code == 503


def test_readiness_is_200_on_a_reachable_postgresql():
    api = make_api(postgres_url())
    ready = api.client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["status"] == "ready", ready.get_json()


@pytest.mark.parametrize("path", ["/readyz", "/healthz"])
def test_readme_and_openapi_document_both_checks(path):
    from pathlib import Path

    readme = (ROOT / "README.md").read_text()
    assert f"GET {path}" in readme and path in DOC["paths"]
    assert "503" in DOC["paths"].get("/readyz", {}).get("get", {}).get("responses", {})
