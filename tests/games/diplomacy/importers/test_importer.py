"""The DPjudge map importer (`adjudicator variant import`): small map files written here, then every map the
`diplomacy` package ships, compared with the package's own reading of it (skipped, saying why, without it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from unittest import mock

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.cli import main
from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.importers import import_map
from adjudicator.variant_check import check_variant_file
from tests.helpers import ROOT

HAVE_PEER = importlib.util.find_spec("diplomacy") is not None
NEEDS_PEER = pytest.mark.skipif(not HAVE_PEER, reason="the diplomacy package (the peer) is not installed: "
                                                       "pip install '.[bench]'")

TINY = """\
# A tiny map: two powers, a sea, a fleets-only border to a port, a one-way pass, a port and a river coast.
BEGIN SPRING 1901 MOVEMENT
VICTORY 3
RULE BUILD_ANY
RULE HOLD_WIN

NORTH (NORTHERN) NOR
F NOR
SOUTH (SOUTHERN) SOU
A SOU
UNOWNED ISL

North Land = NOR nland
South Land = SOU sland
The Sea = SEA
Isle = ISL
Pass = PAS
River Town = RIV
Mountain = MNT

WATER SEA ABUTS NOR SOU ISL
COAST NOR ABUTS SEA SOU PAS Isl RIV
COAST SOU ABUTS SEA NOR pas
PORT  ISL ABUTS SEA Nor
LAND  PAS ABUTS nor sou
COAST RIV ABUTS NOR
SHUT  MNT ABUTS NOR
"""


def _tiny(tmp_path: Path, text: str = TINY) -> Path:
    path = tmp_path / "tiny.map"
    path.write_text(text, encoding="utf-8")
    return path


def _border(data: dict, text: str) -> bool:
    return text in data["borders"]


def test_case_of_each_neighbour_says_who_crosses(tmp_path):
    imported = import_map(_tiny(tmp_path))
    data = imported.data
    assert _border(data, "nor - sou : coast")  # upper case both ways: armies and fleets
    # `Isl` / `Nor`: fleets only, between two land places; Isl is a PORT, so convoys cross it: a strait
    assert _border(data, "isl - nor : strait")
    coast_isle = import_map(_tiny(tmp_path, TINY.replace("PORT  ISL", "COAST ISL"))).data
    assert _border(coast_isle, "isl - nor : canal")  # neither end convoys: a canal
    assert _border(data, "isl - sea : water") and _border(data, "nor - sea : water")
    assert _border(data, "nor - riv : coast")
    # NOR lists PAS in upper case, but a fleet may not enter LAND: armies only.
    assert _border(data, "nor - pas : land") and _border(data, "pas - sou : land")
    assert not any("mnt" in b for b in data["borders"])  # SHUT: impassable, left out


def test_one_way_border_when_only_one_side_lists_it(tmp_path):
    text = TINY.replace("LAND  PAS ABUTS nor sou", "LAND  PAS ABUTS nor")
    data = import_map(_tiny(tmp_path, text)).data
    assert "sou > pas : land" in data["borders"]
    board = board_from_data(data)
    assert board.can_move("A", "sou", "pas", "Spring") and not board.can_move("A", "pas", "sou", "Spring")


def test_places_centres_powers_rules_and_notes(tmp_path):
    imported = import_map(_tiny(tmp_path), name="tiny")
    data = imported.data
    by_id = {p["id"]: p for p in data["provinces"]}
    assert by_id["isl"]["convoys"] is True  # PORT: fleets convoy through it
    assert by_id["riv"]["river"] is True and by_id["riv"]["river_builds"] is True  # no sea beside it
    assert by_id["nor"] == {"id": "nor", "name": "North Land", "kind": "land", "centre": True, "home": "North",
                            "aliases": ["nland"]}
    assert by_id["sea"]["kind"] == "sea" and by_id["isl"].get("centre") is True and "home" not in by_id["isl"]
    assert "mnt" not in by_id
    assert data["powers"] == {"North": {"adjective": "Northern"}, "South": {"adjective": "Southern"}}
    assert data["start"] == {"North": ["F nor"], "South": ["A sou"]}
    assert data["victory"] == 3 and data["options"] == {"builds": "owned"}
    assert data["calendar"]["start"] == {"season": "Spring", "year": 1901, "type": "Movement"}
    notes = {str(n) for n in imported.notes}
    assert "tiny.map:5: rule HOLD_WIN: the board format has no such rule: not imported" in notes
    assert any(n.startswith("tiny.map:27: MNT is impassable (SHUT)") for n in notes)
    assert any(n.startswith("tiny.map: no picture of the map was found") and "compass" in n for n in notes)
    assert len(notes) == 3


def test_imported_board_loads_and_passes_the_checker(tmp_path):
    out = tmp_path / "tiny.yaml"
    out.write_text(import_map(_tiny(tmp_path), name="tiny").to_yaml(), encoding="utf-8")
    assert check_variant_file(out) == []
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Tiny, imported from a DPjudge map file") and "# Terms: not stated" in text
    assert "#   tiny.map:5: rule HOLD_WIN" in text  # the notes are in the header


def test_a_line_read_as_a_power_without_homes_or_units_is_reported(tmp_path):
    imported = import_map(_tiny(tmp_path, TINY + "NEWYEAR 1\n"))
    assert "Newyear" not in imported.data["powers"]
    assert any(str(n).startswith("tiny.map:28: NEWYEAR: read as a power") for n in imported.notes)


def test_map_and_unplayed_read_the_root_map(tmp_path):
    _tiny(tmp_path)
    (tmp_path / "duel.map").write_text("MAP tiny\nUNPLAYED SOUTH\n\nEAST (EASTERN) SOU\nA SOU\n", encoding="utf-8")
    imported = import_map(tmp_path / "duel.map")
    assert imported.data["powers"] == {"North": {"adjective": "Northern"}, "East": {"adjective": "Eastern"}}
    assert imported.data["start"] == {"North": ["F nor"], "East": ["A sou"]}
    assert [Path(f).name for f in imported.sources] == ["duel.map", "tiny.map"]


def test_missing_and_cyclic_map_files_are_refused(tmp_path):
    with pytest.raises(AdjudicatorError, match="cannot find the map file"):
        import_map(tmp_path / "nothing.map")
    (tmp_path / "a.map").write_text("USES b\n", encoding="utf-8")
    (tmp_path / "b.map").write_text("USES a\n", encoding="utf-8")
    with pytest.raises(AdjudicatorError, match="used twice"):
        import_map(tmp_path / "a.map")


def test_picture_spots_become_positions(tmp_path):
    _tiny(tmp_path)
    spots = "".join(f'<jdipNS:PROVINCE name="{p}"><jdipNS:UNIT x="{10 * i}" y="{5 * i}"/></jdipNS:PROVINCE>'
                    for i, p in enumerate(["nor", "sou", "sea", "isl", "pas", "riv"]))
    (tmp_path / "tiny.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:jdipNS="svg.dtd"><jdipNS:PROVINCE_DATA>' + spots +
        '</jdipNS:PROVINCE_DATA><jdipNS:POWERCOLOR power="north" color="#123456"/></svg>', encoding="utf-8")
    imported = import_map(tmp_path / "tiny.map")
    assert imported.picture.endswith("tiny.svg")
    assert {p["id"]: p["pos"] for p in imported.data["provinces"]}["sou"] == [10.0, 5.0]
    assert imported.data["drawing"]["projection"] == {"name": "plane"}
    assert imported.data["powers"]["North"]["colour"] == "#123456"
    (tmp_path / "tiny.svg").write_text('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>', encoding="utf-8")
    imported = import_map(tmp_path / "tiny.map")
    assert "drawing" not in imported.data and any("entities" in n.text for n in imported.notes)


def test_cli_import_writes_checks_and_reports(tmp_path):
    _tiny(tmp_path)
    out = tmp_path / "mine.yaml"
    result = CliRunner().invoke(main, ["variant", "import", str(tmp_path / "tiny.map"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "note: tiny.map:5: rule HOLD_WIN" in result.output
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["name"] == "mine"
    again = CliRunner().invoke(main, ["variant", "import", str(tmp_path / "tiny.map"), "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output


def test_cli_variant_list_shows_the_catalogue():
    result = CliRunner().invoke(main, ["variant", "list"])
    assert result.exit_code == 0
    lines = {line.split()[0]: line for line in result.output.splitlines() if line and not line.startswith(" ")}
    assert {"ancmed", "modern", "pure", "world", "standard"} <= set(lines)
    assert "Modern Diplomacy: 10 players, 64 centres" in lines["modern"] and "builds owned" in lines["modern"]
    assert "Ancient Mediterranean: 5 players, 34 centres" in lines["ancmed"]


def test_api_variants_show_players_centres_and_rules():
    from api import create_app

    client = create_app().test_client()
    variants = {v["name"]: v for v in client.get("/v1/variants").get_json()}
    assert variants["world"]["players"] == 17 and variants["world"]["centres"] == 86
    assert variants["modern"]["options"]["builds"] == "owned"
    assert variants["pure"]["powers"] == ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert "diplomacy package" in variants["ancmed"]["origin"]


# ----- every map the diplomacy package ships --------------------------------------------------------------
def _package_maps() -> list[str]:
    if not HAVE_PEER:
        return ["(none)"]
    from adjudicator.games.diplomacy.importers.shipped import package_maps

    return sorted(p.name for p in package_maps().glob("*.map"))


def _peer_map(name: str):
    """The peer's reading of a map, without its quadratic caches and convoy tables (not needed here)."""
    from diplomacy.engine.map import MAP_CACHE, Map

    if name in MAP_CACHE:  # already read in this process (a game was played on it): Map() would return it empty
        return MAP_CACHE[name]
    with mock.patch.object(Map, "build_cache", lambda self: None):
        return Map(name, use_cache=False)


@NEEDS_PEER
@pytest.mark.parametrize("map_file", _package_maps())
def test_every_package_map_imports_with_the_packages_legal_moves(tmp_path, map_file):
    from adjudicator.catalogue import board_from_file
    from adjudicator.games.diplomacy.importers.shipped import package_maps

    stem = map_file[:-4]
    out = tmp_path / f"{stem}.yaml"
    imported = import_map(package_maps() / map_file, name=stem)
    out.write_text(imported.to_yaml(), encoding="utf-8")
    assert check_variant_file(out) == []
    board = board_from_file(out)
    peer = _peer_map(stem)
    season = board.start_phase[0]
    locs = [loc.upper() for loc in peer.locs if peer.area_type(loc) != "SHUT"]
    peer_moves = {(t, o): {d for d in locs if peer._abuts(t, o, "-", d)} for t in "AF" for o in locs}
    reachable = {(t, d) for (t, _), ds in peer_moves.items() for d in ds}
    homes = {h for hs in peer.homes.values() for h in hs}
    differences = []
    for unit in "AF":
        for loc in locs:
            here = loc.lower()
            ours_stand = here.split("/")[0] in board.provinces and board.can_stand(unit, here, season)
            peer_stand = bool(peer.is_valid_unit(f"{unit} {loc}"))
            if ours_stand != peer_stand and ((unit, loc) in reachable or loc[:3] in homes):
                differences.append(f"{unit} {loc}: stands here: ours {ours_stand}, peer {peer_stand}")
            if not (ours_stand and peer_stand):
                continue
            theirs = {d for d in peer_moves[(unit, loc)] if peer.is_valid_unit(f"{unit} {d}")}
            view = board.season(season)
            ours = {d.upper() for d in (view.army_next if unit == "A" else view.fleet_next).get(here, ())
                    if board.can_stand(unit, d, season)}
            if ours != theirs:
                differences.append(f"{unit} {loc}: ours only {sorted(ours - theirs)}, peer only {sorted(theirs - ours)}")
    assert differences == []
    # Centres, homes and starting units as the peer has them.
    assert {c.lower() for c in peer.scs} == set(board.centres)
    ours_by_peer_name = {p.upper().replace("-", ""): p for p in board.powers}  # the peer drops hyphens
    assert set(ours_by_peer_name) == set(peer.homes)
    for power, homes in peer.homes.items():
        assert sorted(board.home_centres(ours_by_peer_name[power])) == sorted(h.lower() for h in homes)
    units = {u.lower() for us in peer.units.values() for u in us}
    assert units == {u.lower() for us in board.start_units.values() for u in us}


@NEEDS_PEER
def test_shipped_imported_boards_are_what_the_importer_makes():
    from adjudicator.games.diplomacy.importers.shipped import SHIPPED, build
    from adjudicator.resources import data_dir

    for name in SHIPPED:
        shipped = yaml.safe_load((data_dir("variants") / f"{name}.yaml").read_text(encoding="utf-8"))
        made = yaml.safe_load(build(name))
        shipped.pop("origin"), made.pop("origin")  # names the package's version
        assert shipped == made, name


def test_flow_is_the_calendar(tmp_path):
    text = TINY.replace("BEGIN SPRING 1901 MOVEMENT", "FLOW SPRING:MOVEMENT SUMMER:MOVEMENT,RETREATS "
                                                      "WINTER:ADJUSTMENTS,BOGUS\nBEGIN SUMMER 1901 MOVEMENT")
    imported = import_map(_tiny(tmp_path, text), name="tiny")
    calendar = imported.data["calendar"]
    assert calendar["phases"] == [{"season": "Spring", "type": "Movement"}, {"season": "Summer", "type": "Movement"},
                                  {"season": "Summer", "type": "Retreat", "centres": True},
                                  {"season": "Winter", "type": "Adjustment"}]
    assert calendar["start"] == {"season": "Summer", "year": 1901, "type": "Movement"}
    assert any("unknown phase type 'BOGUS'" in n.text for n in imported.notes)
    out = tmp_path / "tiny.yaml"
    out.write_text(imported.to_yaml(), encoding="utf-8")
    assert check_variant_file(out) == []


def test_an_imported_board_plays_from_its_path(tmp_path):
    _tiny(tmp_path)
    runner = CliRunner()
    board = tmp_path / "tiny.yaml"
    assert runner.invoke(main, ["variant", "import", str(tmp_path / "tiny.map"), "-o", str(board)]).exit_code == 0
    game = tmp_path / "game.yaml"
    result = runner.invoke(main, ["new", "--variant", str(board), "-o", str(game)])
    assert result.exit_code == 0, result.output
    orders = tmp_path / "orders.txt"
    orders.write_text("North: F nor - isl\nSouth: A sou - pas\n", encoding="utf-8")
    result = runner.invoke(main, ["adjudicate", str(game), str(orders), "-o", str(tmp_path / "next.yaml")])
    assert result.exit_code == 0, result.output
    assert "moves to isl" in result.output and "moves to pas" in result.output  # the canal, the army pass


@pytest.mark.parametrize("name, text", [
    ("board.yaml", (ROOT / "variants" / "standard.yaml").read_text()),
    ("map.svg", '<svg xmlns="http://www.w3.org/2000/svg"><g id="provinces"><path d="M0 0"/></g></svg>\n'),
    ("notes.map", "Paris = par\nsome words\n"),
])
def test_a_file_that_is_not_a_dpjudge_map_is_refused_and_nothing_is_written(tmp_path, name, text):
    # Issue 27, finding 11: it wrote an empty board with 30-60 notes, and left the file behind.
    source, out = tmp_path / name, tmp_path / "out.yaml"
    source.write_text(text)
    r = CliRunner().invoke(main, ["variant", "import", str(source), "-o", str(out)])
    assert r.exit_code == 2 and "this is not a DPjudge map" in r.output and "nothing was written" in r.output
    assert not out.exists()
