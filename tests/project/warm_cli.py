"""A warm `adjudicator` command for the README test: one process imports the command's entry point
(`adjudicator.cli:main`) once, and runs each command in a child forked from it, with the caller's working
folder, environment, standard input and output. A command then costs milliseconds of start-up instead of the
second its imports take, which is most of what the README's thirty-odd commands cost.

    python warm_cli.py serve SOCKET          # prints "ready", then serves until killed
    python warm_cli.py call SOCKET ARGS...   # one command: its output, and its exit status
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys


def serve(path: str) -> None:
    """Accept commands on the Unix socket `path`, each run in a forked child; never returns."""
    from adjudicator.catalogue import load_variant
    from adjudicator.cli import main
    import adjudicator.gamefile, adjudicator.games.diplomacy.report, adjudicator.render  # noqa: E401,F401 (what most commands load)

    for name in ("arctic", "standard"):  # the README's boards, built once (a board is a pure, cached value)
        load_variant(name)

    signal.signal(signal.SIGCHLD, _reap)  # (so no child is left a zombie, and its CPU time is counted)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen(16)
    print("ready", flush=True)
    while True:
        conn, _ = listener.accept()
        message, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        if os.fork() == 0:
            listener.close()
            request = json.loads(message)
            for target, fd in enumerate(fds):  # the caller's stdin, stdout and stderr
                os.dup2(fd, target)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            code = 0
            try:
                main(request["argv"], prog_name="adjudicator")
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if isinstance(exc.code, str):
                    print(exc.code, file=sys.stderr)
            except BaseException:  # a traceback, as the real command would print it
                import traceback

                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            conn.sendall(str(code).encode())
            os._exit(0)
        for fd in fds:
            os.close(fd)
        conn.close()


def _reap(*_: object) -> None:
    """Wait for every child that has ended."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def call(path: str, argv: list[str]) -> int:
    """Run one command in the warm process; its exit status."""
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(path)
        request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}
        socket.send_fds(conn, [json.dumps(request).encode()], [0, 1, 2])
        answer = b""
        while chunk := conn.recv(16):
            answer += chunk
    return int(answer or b"1")


if __name__ == "__main__":
    mode, socket_path, *args = sys.argv[1:]
    if mode == "serve":
        serve(socket_path)
    sys.exit(call(socket_path, args))
