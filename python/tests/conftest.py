"""Shared fixtures: the repository, the `quotasim` binary to compare with (built with cargo
once per session, or `QUOTASIM=/path/to/quotasim`), and a helper that runs it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRESETS = sorted((ROOT / "www" / "presets").glob("*.json"))
KUEUE_FIXTURES = sorted((ROOT / "crates" / "engine" / "tests" / "config").glob("kueue-*.yaml"))


@pytest.fixture(scope="session")
def quotasim() -> str:
    exe = os.environ.get("QUOTASIM")
    if exe:
        return exe
    subprocess.run(
        ["cargo", "build", "--quiet", "-p", "quotalab-cli"],
        cwd=ROOT,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "debug" / "quotasim")


@pytest.fixture(scope="session")
def cli(quotasim):
    """Runs `quotasim ARGS` and returns (exit code, stdout, stderr) as text."""

    def call(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
        p = subprocess.run(
            [quotasim, *map(str, args)],
            input=stdin.encode() if stdin is not None else None,
            capture_output=True,
            cwd=ROOT,
        )
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    return call
