"""The objects the functions return: the CLI's exact text in ``.json`` (or ``.text``), and
its tables as pandas DataFrames, built on first use."""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any, Optional

import pandas as pd

from ._errors import Problem


def _metrics_frame(metrics: dict[str, dict[str, Any]], index_name: str) -> pd.DataFrame:
    """One row per name, the metrics flattened (``jobs.succeeded``, ``wait_s.p90``...)."""
    if not metrics:
        return pd.DataFrame(index=pd.Index([], name=index_name))
    frame = pd.json_normalize(list(metrics.values()))
    frame.index = pd.Index(list(metrics.keys()), name=index_name)
    return frame


class Result:
    """One run (SPEC 8).

    ``json`` is exactly what ``quotasim run FILE`` prints (byte for byte, with its final
    newline); ``data`` is it parsed. The tables are DataFrames: ``shares`` (one row per
    share, the metrics flattened: ``jobs.succeeded``, ``completion_s.p90``,
    ``instance_hours.borrowed``...), ``totals`` (one row), ``jobs``, ``events`` and
    ``series`` (one row per change point, share and instance type: ``t_s``, ``share``,
    ``instance_type``, ``limit``, ``own``, ``borrowed``, ``lent``, ``queued``).
    """

    json: str
    warnings: list[Problem]

    def __init__(self, json_text: str, warnings: Optional[list[Problem]] = None) -> None:
        self.json = json_text
        self.warnings = list(warnings or [])

    def __repr__(self) -> str:
        d = self.data
        return (
            f"<quotalab.Result: {len(d.get('shares', {}))} shares, "
            f"{len(d.get('jobs', []))} jobs, end_s={d.get('end_s')}>"
        )

    @cached_property
    def data(self) -> dict[str, Any]:
        """The result JSON as Python objects."""
        return json.loads(self.json)

    @property
    def end_s(self) -> float:
        return self.data["end_s"]

    @cached_property
    def shares(self) -> pd.DataFrame:
        """Per share (index ``share``), every metric of SPEC 8 and 14, flattened."""
        return _metrics_frame(self.data.get("shares", {}), "share")

    @cached_property
    def totals(self) -> pd.DataFrame:
        """The same metrics over all shares: one row, index ``totals``."""
        return _metrics_frame({"totals": self.data.get("totals", {})}, "scope")

    @cached_property
    def jobs(self) -> pd.DataFrame:
        """One row per job: its state at ``end_s``, times, preemptions and lost time."""
        return pd.DataFrame(self.data.get("jobs", []))

    @cached_property
    def events(self) -> pd.DataFrame:
        """The event log in order (``t_s``, ``job``, ``share``, ``kind``, ...)."""
        return pd.DataFrame(self.data.get("events", []))

    @cached_property
    def series(self) -> pd.DataFrame:
        """Change points, long form: one row per time, share and instance type."""
        series = self.data.get("series", {})
        times = series.get("t_s", [])
        frames = []
        for share, types in series.get("shares", {}).items():
            for itype, columns in types.items():
                frame = pd.DataFrame({"t_s": times, **columns})
                frame.insert(1, "share", share)
                frame.insert(2, "instance_type", itype)
                frames.append(frame)
        if not frames:
            return pd.DataFrame(columns=["t_s", "share", "instance_type"])
        return pd.concat(frames, ignore_index=True)


class Comparison:
    """``quotasim compare`` (SPEC 9.1): the scenario as given beside ``partitioned`` and
    ``pooled``. ``json`` is the CLI's bytes; ``as_given``, ``partitioned`` and ``pooled``
    are `Result`s whose ``json`` is that policy's result exactly as it appears in it;
    ``matched`` and ``forecast`` are DataFrames (one row per share)."""

    json: str
    warnings: list[Problem]
    as_given: Result
    partitioned: Result
    pooled: Result

    def __init__(self, json_text: str, runs: dict[str, str], warnings: list[Problem]) -> None:
        self.json = json_text
        self.warnings = warnings
        self.as_given = Result(runs["as_given"], warnings)
        self.partitioned = Result(runs["partitioned"], warnings)
        self.pooled = Result(runs["pooled"], warnings)

    def __repr__(self) -> str:
        return f"<quotalab.Comparison: {len(self.as_given.data.get('shares', {}))} shares>"

    @cached_property
    def data(self) -> dict[str, Any]:
        return json.loads(self.json)

    @cached_property
    def matched(self) -> pd.DataFrame:
        """Per share: completion p50/p90 of the jobs that succeeded under all three."""
        m = self.data.get("matched", {})
        if isinstance(m, list):
            return pd.json_normalize(m)
        return _metrics_frame(m, "share")

    @cached_property
    def forecast(self) -> pd.DataFrame:
        """Per share: completion on its allocation alone beside as given (SPEC 14)."""
        f = self.data.get("forecast", {})
        if isinstance(f, list):
            return pd.json_normalize(f)
        return _metrics_frame(f, "share")

    @cached_property
    def shares(self) -> pd.DataFrame:
        """Every policy's per-share metrics, with a ``policy`` level in the index."""
        return pd.concat(
            {
                "as_given": self.as_given.shares,
                "partitioned": self.partitioned.shares,
                "pooled": self.pooled.shares,
            },
            names=["policy"],
        )


class Validation:
    """``quotasim validate``: ``text`` is its line (``valid: 3 shares, ...``)."""

    text: str
    shares: int
    jobs: int
    events: int
    warnings: list[Problem]

    def __init__(self, text: str, counts: tuple, warnings: list[Problem]) -> None:
        self.text = text
        self.shares, self.jobs, self.events = counts
        self.warnings = warnings

    def __repr__(self) -> str:
        return f"<quotalab.Validation: {self.text.strip()}>"

    def __bool__(self) -> bool:
        return True


class Text:
    """A text product (an imported scenario, an export, a report): ``text`` is exactly what
    the CLI prints or writes, ``warnings`` what it warns."""

    text: str
    warnings: list[Problem]

    def __init__(self, text: str, warnings: list[Problem]) -> None:
        self.text = text
        self.warnings = warnings

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<quotalab.{type(self).__name__}: {len(self.text)} characters>"

    def write(self, path) -> None:
        """Writes ``text`` to ``path`` (UTF-8, the exact bytes)."""
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(self.text)


class Imported(Text):
    """``quotasim import``: ``json`` is the scenario as the CLI prints it; ``scenario`` is it
    parsed (a dict any function here accepts)."""

    @property
    def json(self) -> str:
        return self.text

    @cached_property
    def scenario(self) -> dict[str, Any]:
        return json.loads(self.text)


class Exported(Text):
    """``quotasim export``: the AWS JSON, the ``aws batch`` script or the Kueue YAML."""


class Report(Text):
    """``quotasim report -o OUT``: the self-contained HTML report (``html`` is ``text``)."""

    @property
    def html(self) -> str:
        return self.text

    def _repr_html_(self) -> str:  # shown inline in notebooks
        return self.text
