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

from adjudicator.loglines import UNSAFE, EscapingFormatter, escape_match, escaped

__all__ = ["EscapedAtoms", "EscapingFormatter", "Logger", "escaped"]

def _as_sent(value: str) -> str:
    """A WSGI string (each byte as a Latin-1 character) escaped as the UTF-8 the client sent: a byte that is
    not UTF-8 as `\\xNN`."""
    try:
        text = value.encode("latin-1").decode("utf-8", "surrogateescape")  # such a byte: U+DC80 to U+DCFF
    except UnicodeEncodeError:  # not a WSGI byte string
        return escaped(value)
    return UNSAFE.sub(_escape_sent, text)


def _escape_sent(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else escape_match(match)


class EscapedAtoms(glogging.SafeAtoms):
    """An access line's fields, each escaped (and `"` as `\\"`, as gunicorn does, after the backslashes)."""

    def __init__(self, atoms: dict[str, Any]):
        super().__init__({key: _as_sent(value) if isinstance(value, str) else value
                          for key, value in atoms.items()})


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
