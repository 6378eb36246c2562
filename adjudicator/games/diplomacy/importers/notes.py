"""What an importer could not carry over from a map file, with where it was written."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MapNote:
    """Something in a map file that the board does not carry over, with where it was written."""

    file: str
    line: int | None
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}" if self.line else f"{self.file}: {self.text}"
