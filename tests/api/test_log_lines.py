"""Issue 34, finding 5: the access log cannot be forged. A path holding `%0D%0A` wrote a line of the client's
choosing into `adjudicator serve`'s access log; every field of an access line, and every line of the error log
and of the application's loggers, now has its control characters escaped (api/access_log.py)."""

from __future__ import annotations

import io
import logging
import socket
import time

import pytest
from tests.api_helpers import logged_server
from gunicorn.config import Config

from api.access_log import EscapingFormatter, Logger, escaped
from api.server import server_options

FAKE = '127.0.0.1 [01/Jan/2030:00:00:00 +0000] "GET /v1/games/admin HTTP/1.1" 200 2 1us "-"'


def _send(base: str, raw: bytes) -> bytes:
    host, port = base.rsplit("/", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(raw)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_path_with_cr_lf_writes_no_line_of_its_own_into_the_access_log(tmp_path):
    forged = FAKE.replace(" ", "%20").replace('"', "%22")
    with logged_server(tmp_path) as (base, log):
        answer = _send(base, f"GET /healthz%0D%0A{forged}%1B[2J%0D%0A HTTP/1.1\r\nHost: x\r\n"
                             "User-Agent: bot\u202eevil\r\nConnection: close\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 404")
        _send(base, b"GET /healthz/%C3%A9%E2%80%A8%FF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        deadline = time.monotonic() + 10
        while "GET /healthz/" not in log.read_text(errors="replace"):  # (each line is flushed as it is written)
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    lines = log.read_text().splitlines()
    assert not [line for line in lines if line.startswith("127.0.0.1 [01/Jan/2030")], lines
    logged = next(line for line in lines if "/healthz\\x0d\\x0a" in line)
    assert '\\x0d\\x0a127.0.0.1 [01/Jan/2030:00:00:00 +0000] \\"GET /v1/games/admin' in logged
    assert "\\x1b[2J" in logged and "\x1b" not in logged  # a terminal's escape sequence too
    assert '"bot\\u202eevil"' in logged  # a user agent's bidirectional override
    utf8 = next(line for line in lines if "/healthz/" in line and "\\u2028" in line)
    assert "/healthz/é\\u2028\\xff" in utf8  # UTF-8 shown as sent; a line separator and a byte that is not UTF-8 escaped


def _logger() -> tuple[Logger, io.StringIO]:
    cfg = Config()
    for key, value in server_options().items():
        cfg.set(key, value)
    cfg.set("errorlog", "-")
    logger = Logger(cfg)
    out = io.StringIO()
    for handler in logger.error_log.handlers:
        handler.setStream(out)
    return logger, out


@pytest.fixture
def application_logger():
    """The `adjudicator` logger as it was: a gunicorn Logger made here sends it to its error log."""
    application = logging.getLogger("adjudicator")
    kept = application.handlers[:], application.level, application.propagate
    yield
    application.handlers, application.propagate = kept[0], kept[2]
    application.setLevel(kept[1])


def test_application_log_lines_escape_what_a_client_or_receiver_wrote(application_logger):
    logger, out = _logger()
    logging.getLogger("adjudicator.webhooks").warning("webhook %s: %s", "g.1", "refused\r\nINFO forged line\u2028x")
    try:
        raise ValueError("bad value\nCRITICAL forged")
    except ValueError:
        logging.getLogger("adjudicator.api").exception("unexpected error from %r", "a\x00b")
    logger.error("gunicorn's own: %s", "line\rbreak")
    lines = out.getvalue().splitlines()
    assert len([line for line in lines if line.startswith("[")]) == 3, lines
    assert any("refused\\x0d\\x0aINFO forged line\\u2028x" in line for line in lines)
    assert any("line\\x0dbreak" in line for line in lines)
    assert not [line for line in lines if line.startswith(("INFO", "CRITICAL"))], lines
    assert all(line.startswith(("[", "    ")) for line in lines), lines  # a traceback's lines indented


def test_escaped_keeps_text_and_escapes_controls_and_backslashes():
    assert escaped("Ann \u05d0 é 🏳") == "Ann \u05d0 é 🏳"
    assert escaped("a\\x0a\n\t\x7f\x85\u202e\ud800") == "a\\\\x0a\\x0a\\x09\\x7f\\x85\\u202e\\ud800"
    record = logging.makeLogRecord({"msg": "%s", "args": ("x\ny",), "levelname": "INFO"})
    assert EscapingFormatter(logging.Formatter("%(levelname)s %(message)s")).format(record) == "INFO x\\x0ay"


def test_games_tick_logs_escaped_lines(capsys):
    from adjudicator.loglines import escape_to_stderr

    logger = logging.getLogger("adjudicator")
    kept = logger.handlers, logger.level, logger.propagate
    logger.handlers = []
    try:
        escape_to_stderr()  # what `adjudicator games tick` does first
        logging.getLogger("adjudicator.hosted.webhooks").warning("receiver said %s", "ok\r\nWARNING forged line")
        err = capsys.readouterr().err
    finally:
        logger.handlers, logger.level, logger.propagate = kept
    assert err.count("\n") == 1 and "ok\\x0d\\x0aWARNING forged line" in err
