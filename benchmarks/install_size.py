"""The installed size of `pip install .` and of each extra, measured in fresh virtual environments.

Each row is one new venv (`python -m venv`) with one install in it; its size is the disk use of the venv's
site-packages (as `du` counts it: blocks, hard links once) less that of the empty venv (pip alone). An extra's
row is `pip install ".[extra]"` (the base and the extra), with the extra's own share beside it. What it leaves
out: the venv's interpreter links and scripts (bin/), pip's cache, and system libraries (Skia's libGL and libEGL).

    python benchmarks/install_size.py                  # the base and the server, postgres, fast-pictures and env extras
    python benchmarks/install_size.py server test      # the base and the extras named
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ("server", "postgres", "fast-pictures", "env")
MIB = 1024 * 1024


def disk_use(folder: Path) -> int:
    """Bytes of disk a folder's files take, as `du` counts them (allocated blocks, each hard link once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for path in folder.rglob("*"):
        st = path.lstat()
        if (st.st_dev, st.st_ino) not in seen:
            seen.add((st.st_dev, st.st_ino))
            total += st.st_blocks * 512
    return total


def installed(target: str, work: Path) -> int:
    """Bytes `pip install target` adds to a fresh venv's site-packages."""
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    site = next((venv / "lib").glob("python*/site-packages"))
    empty = disk_use(site)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", target], check=True,
                   env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    return disk_use(site) - empty


def main() -> None:
    """Measure and print the base install and each extra named (default: the optional parts)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extras", nargs="*", default=list(EXTRAS), help="extras of pyproject.toml to measure")
    args = parser.parse_args()
    rows: list[tuple[str, int]] = []
    for extra in [None, *args.extras]:
        target = str(ROOT) if extra is None else f"{ROOT}[{extra}]"
        with tempfile.TemporaryDirectory(prefix="install-size-") as work:
            name = "pip install ." if extra is None else f'pip install ".[{extra}]"'
            rows.append((name, installed(target, Path(work))))
        base, size = rows[0][1], rows[-1][1]
        share = "" if extra is None else f"  (the extra: +{(size - base) / MIB:.0f} MiB)"
        print(f"{name:<40} {size / MIB:6.0f} MiB{share}", flush=True)


if __name__ == "__main__":
    main()
