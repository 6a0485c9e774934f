"""The native module (PyO3, python/src/lib.rs): the engine functions the CLI calls.

Problems cross as ``EngineError(list of (path, message, line))``; the package turns them into
``quotalab.ScenarioError``. Texts are what ``quotasim`` prints (with its final newline).
"""

from collections.abc import Sequence
from typing import Optional

Triple = tuple[str, str, str]

MAX_FILE_BYTES: int
VERSION: str
HISTORY_NEEDS_SHARES: str
REVIEW_MAX_SEEDS: int

class EngineError(ValueError): ...

def read_input(file: str) -> str: ...
def read_bounded(file: str) -> str: ...
def detect_format(text: str) -> Optional[str]: ...
def run(text: str, summary: bool = False) -> tuple[str, list[Triple]]: ...
def validate(text: str) -> tuple[str, tuple[int, int, int], list[Triple]]: ...
def compare(
    text: str, summary: bool = False
) -> tuple[str, list[tuple[str, str]], list[Triple]]: ...
def report(
    text: str, compare: bool = False, review: Optional[tuple[str, str]] = None
) -> tuple[str, list[Triple]]: ...
def import_config(
    files: Sequence[tuple[str, str]],
    format: str,
    queue: Optional[str] = None,
    resource: Optional[str] = None,
    flavor_map: Optional[str] = None,
    into: Optional[str] = None,
    cluster: Optional[str] = None,
) -> tuple[str, list[Triple]]: ...
def import_history(
    files: Sequence[tuple[str, str]],
    configs: Sequence[tuple[str, str]],
    into: Optional[tuple[str, str]] = None,
    from_: Optional[str] = None,
    to: Optional[str] = None,
    resource: Optional[str] = None,
    flavor_map: Optional[str] = None,
    queue: Optional[str] = None,
) -> tuple[str, list[Triple]]: ...
def review(
    current: tuple[str, str],
    proposed: tuple[str, str],
    jobs: Optional[tuple[str, str]] = None,
    seeds: Optional[int] = None,
    fail_on: Sequence[str] = ...,
    resource: Optional[str] = None,
    flavor_map: Optional[str] = None,
    queue: Optional[str] = None,
) -> tuple[str, str, list[str], list[Triple]]: ...
def export_config(
    text: str,
    format: str,
    queue: Optional[str] = None,
    resource: Optional[str] = None,
    cluster_arn: Optional[str] = None,
) -> tuple[str, list[Triple]]: ...

class Plan:
    def __init__(self, text: str, varies: Sequence[tuple[str, str]], seeds: int) -> None: ...
    def runs(self) -> int: ...
    def points(self) -> int: ...
    def seeds(self) -> int: ...
    @staticmethod
    def chunk_len(threads: int) -> int: ...
    def check(self, threads: int = 0) -> list[Triple]: ...
    def check_run(self, r: int) -> list[Triple]: ...
    def run(self, r: int) -> str: ...
    def run_range(self, start: int, end: int, threads: int = 0) -> list[str]: ...
