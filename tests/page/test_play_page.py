"""The play page as the server sends it (no browser): its security headers, no inline script or style, nothing
from another site, its files shipped in the package. The page at work is tested in test_play_in_browser.py."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from html.parser import HTMLParser

import pytest

from api import create_app
from api.pages import CONTENT_SECURITY_POLICY
from tests.helpers import ROOT

PAGES = ROOT / "api" / "pages"


@pytest.fixture
def client(tmp_path):
    return create_app({"ADJUDICATOR_DATABASE": str(tmp_path / "games.sqlite3")}).test_client()


class _Tags(HTMLParser):
    """Every start tag of a document with its attributes."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline_text: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in = tag if tag in ("script", "style") else None

    def handle_data(self, data):
        if self._in and data.strip():
            self.inline_text.append(f"<{self._in}>{data.strip()[:40]}")

    def handle_endtag(self, tag):
        self._in = None


def test_the_page_is_served_with_a_strict_policy_and_no_inline_code(client):
    response = client.get("/play/Abc-123_xyz")
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = dict(part.split(" ", 1) for part in response.headers["Content-Security-Policy"].split("; "))
    assert policy["default-src"] == "'none'" and policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "no-referrer"  # the page's address never leaves in a Referer
    assert response.headers["X-Content-Type-Options"] == "nosniff" and response.headers["Cache-Control"] == "no-store"
    parser = _Tags()
    parser.feed(response.get_data(as_text=True))
    assert not parser.inline_text, parser.inline_text
    for tag, attrs in parser.tags:
        assert "style" not in attrs and not any(a.startswith("on") for a in attrs), (tag, attrs)
        if tag == "script":
            assert attrs.get("src", "").startswith("/static/play/"), attrs
        for name in ("src", "href"):  # nothing from another site
            assert not (attrs.get(name) or "").startswith(("http:", "https:", "//")), (tag, attrs)
    assert ('body', {'data-game': 'Abc-123_xyz'}) in parser.tags


@pytest.mark.parametrize("name,mimetype", [("play.js", "text/javascript"), ("play.css", "text/css"),
                                           ("icon.svg", "image/svg+xml")])
def test_the_pages_files_are_served_with_their_types_and_the_policy(client, name, mimetype):
    response = client.get(f"/static/play/{name}")
    assert response.status_code == 200 and response.mimetype == mimetype
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("game_id", ["a" * 65, "no%20spaces", "semi;colon", "%3Cscript%3E"])
def test_a_game_id_that_cannot_be_one_is_refused(client, game_id):
    response = client.get(f"/play/{game_id}")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"


def test_the_scripts_build_no_markup_from_strings():
    """Every text the API answers is set as text: no script writes markup or runs strings (the page's policy
    also refuses them, through Trusted Types)."""
    scripts = sorted((PAGES / "static").glob("*.js"))
    assert scripts
    sinks = re.compile(r"\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval|Function)\b\s*[=(]")
    for script in scripts:
        for number, line in enumerate(script.read_text().splitlines(), 1):
            assert not sinks.search(line), f"{script.name}:{number}: {line.strip()}"
            named = line.replace('"http://www.w3.org/2000/svg"', "")  # (SVG's XML namespace: a name, never fetched)
            assert "http://" not in named and "https://" not in named, f"{script.name}:{number}: another site"


def test_every_file_of_the_pages_is_shipped_in_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "api.pages" in config["tool"]["setuptools"]["packages"]
    patterns = config["tool"]["setuptools"]["package-data"]["api.pages"]
    files = [p.relative_to(PAGES).as_posix() for p in PAGES.rglob("*") if p.is_file() and p.suffix != ".py"
             and "__pycache__" not in p.parts]
    assert {"templates/play.html", "static/play.js", "static/play.css"} <= set(files)
    missing = [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)]
    assert not missing, f"not in pyproject's package data: {missing}"


@pytest.mark.parametrize("name,title", [("standard", "Diplomacy orders"), ("arctic", "Diplomacy orders"),
                                        ("arctic2019", "2019: The ARCTIC"), ("arctic-race", "Arctic Race order sheets"),
                                        ("arctica", "Arctica order sheets")])
def test_each_games_order_syntax_guide_is_a_page_of_its_own(client, name, title):
    """The play page links `/play/orders/<variant>`: the players' guide of the variant's game (docs/orders/),
    shipped as package data, its text escaped, under the page's policy."""
    response = client.get(f"/play/orders/{name}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert f"<title>{title}" in page
    assert "<pre" in page and "<table" not in page and "<code" not in page  # the guide's text as text, not markup
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    parser = _Tags()
    parser.feed(page)
    assert not parser.inline_text and not any(tag == "script" for tag, _ in parser.tags)


@pytest.mark.parametrize("name", ["nowhere", "a" * 65, "semi;colon"])
def test_a_guide_to_no_game_is_not_found(client, name):
    response = client.get(f"/play/orders/{name}")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
