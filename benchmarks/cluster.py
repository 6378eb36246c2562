"""The hosted deployment on one machine: a throw-away PostgreSQL, `adjudicator serve` instances, haproxy in front.

Every process is started in a session of its own and ended by its group id when the `with` block ends (also on
an error or Ctrl-C), so no server outlives the benchmark or test that started it. Used by
`benchmarks/hosted_load.py` and `tests/hosted/test_hosted_cluster.py`.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from string import Template

import requests

DEPLOY = Path(__file__).resolve().parent / "deploy"
SBIN = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])  # haproxy lives in sbin


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def haproxy_path() -> str | None:
    """The haproxy executable, or None when it is not installed."""
    return shutil.which("haproxy", path=SBIN)


def stop(proc: subprocess.Popen, grace: float = 10.0, first: int = signal.SIGTERM) -> None:
    """End a process started by `start` and everything it forked: `first` to its group, SIGKILL after `grace` s."""
    for sig, wait in ((first, grace), (signal.SIGKILL, 5.0)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    try:  # workers left behind by a master that died first share its group id
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def start(args: list[str], env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    """A child process in a session of its own (so `stop` ends its children too), its output discarded."""
    kw.setdefault("stdout", subprocess.DEVNULL)
    kw.setdefault("stderr", subprocess.DEVNULL)
    return subprocess.Popen(args, env=env, start_new_session=True, **kw)


@contextmanager
def running(proc: subprocess.Popen, first: int = signal.SIGTERM) -> Iterator[subprocess.Popen]:
    """The process, stopped when the block ends (`first`: the signal that asks it to)."""
    try:
        yield proc
    finally:
        stop(proc, first=first)


def wait_healthy(base: str, proc: subprocess.Popen, seconds: float = 60.0) -> None:
    """Wait until `base/healthz` answers 200 (the process must stay alive meanwhile)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if requests.get(base + "/healthz", timeout=2).ok:
                return
        except requests.RequestException:  # not listening yet
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{base} did not start (exit status {proc.poll()})")
        time.sleep(0.1)


@contextmanager
def postgres() -> Iterator[str]:
    """A throw-away PostgreSQL server on loopback (as the `postgres` user when run as root); yields its URL."""
    pg_ctl = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]))
    if not pg_ctl:
        raise RuntimeError("no PostgreSQL server binaries (apt-get install postgresql)")
    bin_dir, port = pg_ctl[-1].parent, free_port()
    folder = Path(tempfile.mkdtemp(prefix="adjudicator-bench-pg."))
    root = os.geteuid() == 0
    if root:
        shutil.chown(folder, "postgres")  # the server refuses to run as root

    def run(*args: str) -> None:
        command = [str(bin_dir / args[0]), *args[1:]]
        if root:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(f"'{a}'" for a in command)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    data = str(folder / "data")
    try:
        run("initdb", "-D", data, "-A", "trust", "-U", "postgres")
        # fsync off: the benchmark measures the service, not this machine's disk (the README says so).
        run("pg_ctl", "-D", data, "-l", str(folder / "log"), "-w", "-o",
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
            "-c max_connections=300", "start")
        try:
            run("createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "adjudicator")
            yield f"postgresql://postgres@127.0.0.1:{port}/adjudicator"
        finally:
            run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def database_env(url: str) -> dict[str, str]:
    """The environment of a process that uses this database (a `sqlite:///` path or a PostgreSQL URL)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_DATABASE")}
    if url.startswith("sqlite:///"):
        env["ADJUDICATOR_DATABASE"] = url[len("sqlite:///"):]
    else:
        env["ADJUDICATOR_DATABASE_URL"] = url
    return env


@dataclass
class Instance:
    """One `adjudicator serve` process (a gunicorn master and its workers)."""

    proc: subprocess.Popen
    base: str

    def workers(self) -> list[int]:
        """The process ids of the instance's workers."""
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []


@dataclass
class Deployment:
    """Instances on one database behind haproxy: `base` is the balancer's address."""

    base: str
    instances: list[Instance]
    database: str


def render_haproxy(bind: str, backends: list[str]) -> str:
    """The haproxy configuration of `deploy/haproxy.cfg` for a bind address and the instances' addresses."""
    servers = "\n".join(f"    server instance{i + 1} {b}" for i, b in enumerate(backends))
    return Template((DEPLOY / "haproxy.cfg").read_text()).substitute(bind=bind, servers=servers)


@contextmanager
def deployment(database: str, instances: int = 2, workers: int = 2) -> Iterator[Deployment]:
    """`instances` servers of `workers` workers each on `database`, behind haproxy; all stopped at the end."""
    haproxy = haproxy_path()
    if haproxy is None:
        raise RuntimeError("haproxy is not installed (apt-get install haproxy)")
    env = database_env(database)
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="adjudicator-bench-lb.") as folder:
        started = []
        for _ in range(instances):
            port = free_port()
            proc = stack.enter_context(running(start(
                [sys.executable, "-m", "adjudicator", "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--workers", str(workers)], env), signal.SIGQUIT))  # gunicorn's quick stop: all is committed
            started.append(Instance(proc, f"http://127.0.0.1:{port}"))
        for instance in started:
            wait_healthy(instance.base, instance.proc)
        port = free_port()
        config = Path(folder) / "haproxy.cfg"
        config.write_text(render_haproxy(f"127.0.0.1:{port}", [i.base.removeprefix("http://") for i in started]))
        proxy = stack.enter_context(running(start([haproxy, "-db", "-f", str(config)])))  # -db: foreground
        wait_healthy(f"http://127.0.0.1:{port}", proxy)
        yield Deployment(f"http://127.0.0.1:{port}", started, database)
