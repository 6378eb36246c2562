"""The README is true and runnable (issue 27): every `sh` block in it runs as written, in order, in a fresh copy
of the project, each with `bash -euo pipefail` (so every command in it must succeed).

The `adjudicator` of the blocks is the command's own entry point, run in a process forked from a warm one
(`warm_cli.py`): the same code, a second's imports saved per command. A block that starts a server runs the
real command.

How blocks are recognised (a block added later needs nothing more, if it fits one of these):
- A block that names `http://localhost:8000` talks to a server: the test starts one (`adjudicator serve`, one
  worker, on a free port, its SQLite file in the copy) and runs the block with that port for 8000.
- A block whose line starts `adjudicator serve` starts a server itself: it runs, on a free port instead of
  8000 and on 127.0.0.1, until `/healthz` answers; then it is stopped.
- In the first block, the commands that install the project (`python -m pip install ...`) are not run again
  (the tests run in the installed project) and the line that runs the tests is skipped (it is this run).
- A block that runs `haproxy -f` is the several-instances deployment: `test_the_deployment_block_runs` runs it
  whole, its ports moved to free ones and its database the tests' PostgreSQL, until a game is made through the
  balancer.
- A block that names `../shared/` runs only where `shared/` is beside the project (CI, a developer's machine).
- `<!-- readme-test: skip REASON -->` on the line before a block skips it, naming why (for a block that can
  only run elsewhere, such as one that needs a Discord token).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.helpers import ROOT

README = ROOT / "README.md"
SKIP_MARK = re.compile(r"<!--\s*readme-test:\s*skip\s*(.*?)\s*-->")
SERVER = "http://localhost:8000"
BLOCK_SECONDS = 180


@dataclass
class Block:
    """A `sh` block of the README: its first line's number, its text, and why it is skipped (if it is)."""

    line: int
    text: str
    skip: str | None = None

    @property
    def name(self) -> str:
        return f"README.md:{self.line}"


def readme_blocks(text: str) -> list[Block]:
    """Every fenced `sh` (or `bash`, `shell`) block, with the skip mark of the line before it."""
    blocks, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence in ("```sh", "```bash", "```shell"):
            mark = SKIP_MARK.search(lines[i - 1]) if i else None
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            blocks.append(Block(i + 2, "\n".join(lines[i + 1:end]) + "\n", mark.group(1) or "marked" if mark else None))
            i = end
        i += 1
    return blocks


def as_run_here(block: Block) -> str:
    """The block as this test runs it: the install step and the test run of the first block left out."""
    out = []
    for line in block.text.splitlines():
        if re.match(r"\s*python -m pip install\b", line):
            _, _, line = line.partition("&&")  # (the install before `&&`; what follows runs)
            if "python -m pytest" in line:
                continue
        out.append(line)
    return "\n".join(out) + "\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, seconds: float = 60) -> None:
    """Until the server answers `url` (it failing to start fails the test)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server stopped: {process.stdout.read() if process.stdout else ''}")
        try:
            if requests.get(url, timeout=1).ok:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise AssertionError(f"no answer from {url} within {seconds} s")


def start(command: list[str], cwd: Path | None = None) -> subprocess.Popen:
    """A server in a session of its own, so `stop` ends it and its workers at once."""
    return subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    """End a process `start` started, with every process of its session (a test server needs no grace time)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A fresh copy of the project's files (what a clone holds), with `shared/` beside it when there is one."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("the project is not a git checkout: its files cannot be listed as a clone holds them")
    base = tmp_path_factory.mktemp("clone")
    copy = base / "project"
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        (base / "shared").symlink_to(shared)
    return copy


@pytest.fixture(scope="module")
def server(project):
    """`adjudicator serve` on a free port, run from the copy (its hosted games' SQLite file lands there)."""
    port = free_port()
    process = start([sys.executable, "-m", "adjudicator", "serve", "--port", str(port), "--workers", "1"], project)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", process)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> str:
    """The shell function that runs `adjudicator` in the warm process (see `warm_cli.py`)."""
    helper = Path(__file__).parent / "warm_cli.py"
    sock = tmp_path_factory.mktemp("warm") / "cli.sock"
    process = start([sys.executable, str(helper), "serve", str(sock)])
    try:
        for line in process.stdout:  # (a warning may come first: stderr is merged)
            if line.strip() == "ready":
                break
        else:
            raise AssertionError("the warm adjudicator did not start")
        yield f'adjudicator() {{ "{sys.executable}" "{helper}" call "{sock}" "$@"; }}\n'
    finally:
        stop(process)


def run_block(block: Block, cwd: Path, text: str) -> None:
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=cwd, capture_output=True, text=True,
                            timeout=BLOCK_SECONDS, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, (f"{block.name} failed (exit {result.returncode}):\n{text}\n--- stdout\n"
                                    f"{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}")


def starts_a_server(block: Block) -> bool:
    return any(line.lstrip().startswith("adjudicator serve") for line in block.text.splitlines())


def is_a_deployment(block: Block) -> bool:
    return "haproxy -f" in block.text


def test_every_readme_block_runs_as_written(project, warm, request):
    blocks = readme_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 10, "the README's blocks were not found"
    skipped, took = [], []
    for block in blocks:
        started = time.monotonic()
        if block.skip:
            skipped.append(f"{block.name}: {block.skip}")
            continue
        if "../shared/" in block.text and not (project.parent / "shared").is_dir():
            skipped.append(f"{block.name}: shared/ is not beside the project")
            continue
        if is_a_deployment(block):
            skipped.append(f"{block.name}: run by test_the_deployment_block_runs")
            continue
        text = as_run_here(block)
        if starts_a_server(block):
            port = free_port()
            line = next(x for x in text.splitlines() if x.lstrip().startswith("adjudicator serve"))
            command = line.split("#")[0].replace("--port 8000", f"--port {port}").replace("0.0.0.0", "127.0.0.1")
            process = start(["bash", "-c", f"exec {command}"], project)
            try:
                wait_for(f"http://127.0.0.1:{port}/healthz", process)
            finally:
                stop(process)
            took.append(f"{block.name} (a server started and stopped): {time.monotonic() - started:.1f} s")
            continue
        if SERVER in text:
            text = text.replace(SERVER, request.getfixturevalue("server"))
        run_block(block, project, warm + text)
        took.append(f"{block.name}: {time.monotonic() - started:.1f} s")
    print("\nREADME blocks run:", *took, "skipped:" if skipped else "", *skipped, sep="\n  ")


def test_the_deployment_block_runs(project):
    # Issue 31: the README's production set-up (two instances, haproxy, PostgreSQL) as written, ports aside.
    from tests.hosted.helpers import postgres_url

    (block,) = [b for b in readme_blocks(README.read_text(encoding="utf-8")) if is_a_deployment(b)]
    database = postgres_url()
    if shutil.which("haproxy") is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy; .ci/run installs it)")
    text = block.text
    ports = {written: free_port() for written in ("8000", "8001", "8002")}
    for written, port in ports.items():
        text = re.sub(rf"(?<![0-9]){written}(?![0-9])", str(port), text)
    text = re.sub(r"ADJUDICATOR_DATABASE_URL=\S+", lambda _: f"ADJUDICATOR_DATABASE_URL={database}", text)
    process = start(["bash", "-euo", "pipefail", "-c", text], project)
    balancer = f"http://127.0.0.1:{ports['8000']}"
    try:
        wait_for(f"{balancer}/healthz", process)
        for _ in range(50):  # until haproxy's checks have both instances in the rotation
            created = requests.post(f"{balancer}/v1/games", json={"variant": "standard"}, timeout=30)
            if created.status_code != 503:
                break
            time.sleep(0.2)
        assert created.status_code == 201, created.text
        game = created.json()
        view = requests.get(f"{balancer}/v1/games/{game['id']}", timeout=30,
                            headers={"Authorization": f"Bearer {game['game_master_token']}"})
        assert view.status_code == 200 and view.json()["id"] == game["id"]
    finally:
        stop(process)


def test_the_readme_names_the_real_defaults():
    from adjudicator.hosted.storage import DEFAULT_SQLITE

    text = README.read_text(encoding="utf-8")
    assert f"`{DEFAULT_SQLITE}`" in text  # finding 12: the README said `games.sqlite3`
    ignored = subprocess.run(["git", "check-ignore", "-q", DEFAULT_SQLITE], cwd=ROOT)
    assert ignored.returncode == 0, f"{DEFAULT_SQLITE} is not ignored by git"


def test_the_bot_example_says_what_it_needs():
    # Finding 12: without its environment it died with `KeyError: 'DISCORD_TOKEN'`.
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "HOOK_URL")}
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "discord_bot.py")], capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 1
    assert "needs DISCORD_TOKEN in its environment" in result.stderr and "Traceback" not in result.stderr
