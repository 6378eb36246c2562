"""The server's log lines are one line each whatever a client sent: control characters written as escapes.

gunicorn writes a request's path (`%(U)s`), method, protocol and user agent as they came: a path holding
`%0D%0A` wrote a line of the client's choosing into the access log (issue 34, finding 5). `Logger` (gunicorn's
`logger_class` in api/server.py) escapes every field of an access line, and every line of the error log and
of the application's loggers (`adjudicator.*`, which it sends to the error log): a message a client or a
webhook receiver wrote part of, a traceback's lines (indented, so none starts where a record does).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn import glogging

# Backslash (so an escape cannot be forged either), C0 and C1 controls, DEL, line and paragraph separators,
# bidirectional controls (which show a line as another) and lone surrogates.
_UNSAFE = re.compile("[\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def escaped(text: str) -> str:
    """`text` on one line: backslash as `\\\\`, every control character as `\\xNN` or `\\uNNNN`."""
    return _UNSAFE.sub(_escape, text)


def _escape(match: re.Match) -> str:
    ch = match.group()
    if ch == "\\":
        return "\\\\"
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _as_sent(value: str) -> str:
    """A WSGI string (each byte as a Latin-1 character) escaped as the UTF-8 the client sent: a byte that is
    not UTF-8 as `\\xNN`."""
    try:
        text = value.encode("latin-1").decode("utf-8", "surrogateescape")  # such a byte: U+DC80 to U+DCFF
    except UnicodeEncodeError:  # not a WSGI byte string
        return escaped(value)
    return _UNSAFE.sub(_escape_sent, text)


def _escape_sent(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else _escape(match)


class EscapedAtoms(glogging.SafeAtoms):
    """An access line's fields, each escaped (and `"` as `\\"`, as gunicorn does, after the backslashes)."""

    def __init__(self, atoms: dict[str, Any]):
        super().__init__({key: _as_sent(value) if isinstance(value, str) else value
                          for key, value in atoms.items()})


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


class Logger(glogging.Logger):
    """gunicorn's logger, every line escaped; the application's loggers write to its error log."""

    atoms_wrapper_class = EscapedAtoms

    def setup(self, cfg: Any) -> None:
        """gunicorn's handlers, the error log's formatters wrapped; `adjudicator.*` sent to the error log."""
        super().setup(cfg)
        for handler in self.error_log.handlers:
            if not isinstance(handler.formatter, EscapingFormatter):
                handler.setFormatter(EscapingFormatter(handler.formatter))
        application = logging.getLogger("adjudicator")
        if not self.error_log.handlers:  # an operator's logging configuration: theirs to route
            return
        application.handlers = list(self.error_log.handlers)
        application.setLevel(self.error_log.level)
        application.propagate = False
