"""Text files as users send them, read one way everywhere: order sheets, game files, boards, case files.

UTF-8 with or without a byte-order mark, UTF-16 with its mark, CRLF or CR line ends (read as LF). Bytes
that are not text give one error naming the file, the encoding tried and where decoding failed.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from adjudicator.errors import AdjudicatorError

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode_text(data: bytes, file: str | None = None) -> str:
    """Bytes to text by the byte-order mark (UTF-8 without one); line ends become LF."""
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1 if encoding != "utf-16" else None
        raise AdjudicatorError(f"this is not text in {encoding.upper().replace('-SIG', '')} (byte {exc.start + 1} "
                               f"cannot be read as {encoding.replace('-sig', '')}); save the file as UTF-8",
                               file=file, line=line) from None
    if "\x00" in text:
        raise AdjudicatorError(f"this is not text in {encoding.replace('-sig', '').upper()}: it holds NUL characters "
                               "(a binary file, or UTF-16 without its byte-order mark); save the file as UTF-8",
                               file=file)
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: str | Path) -> str:
    """A text file's contents (see `decode_text`); an unreadable file is an AdjudicatorError naming it."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise AdjudicatorError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from None
    return decode_text(data, str(path))
