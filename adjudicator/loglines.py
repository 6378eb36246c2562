"""Log lines that stay one line whatever a client or a webhook receiver wrote into them (issue 34, finding 5):
control characters written as escapes, a traceback's lines escaped and indented. `adjudicator serve` uses it
through gunicorn's logger (api/access_log.py); the other commands that log (`games tick`) through
`escape_to_stderr`."""

from __future__ import annotations

import logging
import re

# Backslash (so an escape cannot be forged either), C0 and C1 controls, DEL, line and paragraph separators,
# bidirectional controls (which show a line as another) and lone surrogates.
UNSAFE = re.compile("[\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def escaped(text: str) -> str:
    """`text` on one line: backslash as `\\\\`, every control character as `\\xNN` or `\\uNNNN`."""
    return UNSAFE.sub(escape_match, text)


def escape_match(match: re.Match[str]) -> str:
    """The escape of one unsafe character."""
    ch = match.group()
    if ch == "\\":
        return "\\\\"
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class EscapingFormatter(logging.Formatter):
    """Another formatter's lines, with the record's message escaped and its traceback's lines escaped and
    indented: a record stays one line (and its traceback, lines no reader takes for records)."""

    def __init__(self, inner: logging.Formatter | None = None):
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        """The record as the inner formatter writes it, made safe first."""
        copy = logging.makeLogRecord(record.__dict__)
        copy.msg, copy.args = escaped(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            copy.exc_text = self.inner.formatException(record.exc_info)
        if copy.exc_text:
            copy.exc_text = _indented(copy.exc_text)
        if record.stack_info:
            copy.stack_info = _indented(record.stack_info)
        return self.inner.format(copy)


def _indented(text: str) -> str:
    return "\n".join("    " + escaped(line) for line in text.split("\n"))



def escape_to_stderr(name: str = "adjudicator") -> None:
    """Send a logger's warnings to standard error, each record escaped (unless it has handlers already)."""
    logger = logging.getLogger(name)
    if logger.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(EscapingFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s")))
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
