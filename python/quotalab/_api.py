"""The CLI's commands as functions: each calls the engine function ``quotasim`` calls."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Optional, Union

from . import _quotalab
from ._input import Source, _engine, read, text_of, warn
from ._results import Comparison, Exported, Imported, Report, Result, Validation

__all__ = [
    "compare",
    "export_config",
    "import_config",
    "import_history",
    "report",
    "run",
    "summary",
    "validate",
]


def run(scenario: Source) -> Result:
    """Simulates a scenario: ``quotasim run FILE``.

    ``scenario`` is a path (``str`` or ``os.PathLike``), the JSON text or a dict. Returns a
    `Result` whose ``json`` is byte for byte what ``quotasim run`` prints and whose tables
    are DataFrames. Raises `ScenarioError` (with every problem and its path) for an invalid
    scenario; warnings are issued as `ScenarioWarning` and kept in ``result.warnings``. The
    simulation releases the GIL.
    """
    out, w = _engine(_quotalab.run, text_of(scenario))
    return Result(out, warn(w))


def summary(scenario: Source, *, compare: bool = False) -> str:
    """The human table of ``quotasim run FILE --summary`` (``compare=True``: of
    ``quotasim compare FILE --summary``), exactly as printed."""
    text = text_of(scenario)
    if compare:
        out, _, w = _engine(_quotalab.compare, text, summary=True)
    else:
        out, w = _engine(_quotalab.run, text, summary=True)
    warn(w)
    return out


def validate(scenario: Source) -> Validation:
    """Checks a scenario: ``quotasim validate FILE``. Returns its counts and warnings (and
    ``text``, the CLI's line); raises `ScenarioError` when it is invalid."""
    line, counts, w = _engine(_quotalab.validate, text_of(scenario))
    return Validation(line, counts, warn(w))


def compare(scenario: Source) -> Comparison:
    """The scenario as given beside ``partitioned`` and ``pooled`` (SPEC 9.1):
    ``quotasim compare FILE``; ``.json`` is the CLI's bytes."""
    out, runs, w = _engine(_quotalab.compare, text_of(scenario))
    return Comparison(out, dict(runs), warn(w))


def report(scenario: Source, *, compare: bool = False) -> Report:
    """The self-contained HTML report: ``quotasim report FILE [--compare] -o OUT`` (the
    ``html`` is the file's bytes)."""
    html, w = _engine(_quotalab.report, text_of(scenario), compare=compare)
    return Report(html, warn(w))


ConfigSource = Union[Source, Sequence[Source]]


def _flavor_map(m: Union[str, Mapping[str, str], None]) -> Optional[str]:
    if m is None or isinstance(m, str):
        return m
    return ",".join(f"{k}={v}" for k, v in m.items())


def import_config(
    files: ConfigSource,
    format: Optional[str] = None,
    *,
    queue: Optional[str] = None,
    resource: Optional[str] = None,
    flavor_map: Union[str, Mapping[str, str], None] = None,
    into: Optional[Source] = None,
) -> Imported:
    """A real quota configuration as a scenario: ``quotasim import aws|kueue FILE...``.

    ``files``: one input or a list (paths, YAML/JSON text, or dicts). ``format``: ``"aws"``
    (AWS Batch quota-share JSON) or ``"kueue"`` (Kueue YAML); ``None`` guesses from the
    first file's content (JSON is AWS, anything else Kueue). ``queue`` (AWS), ``resource``
    and ``flavor_map`` (Kueue: ``"a100=ml.p4d.24xlarge"`` or a dict) and ``into`` (keep that
    scenario's workloads, jobs and events) are the CLI's options. Files over 8 MiB are
    refused as by the CLI. Returns `Imported` (``.json``, ``.scenario``).
    """
    if isinstance(files, (str, bytes, os.PathLike, Mapping)):
        files = [files]
    named = [read(f, bounded=True, what="configuration") for f in files]
    if format is None:
        format = (_quotalab.detect_format(named[0][1]) if named else None) or "kueue"
    base = text_of(into, bounded=True) if into is not None else None
    out, w = _engine(
        _quotalab.import_config,
        named,
        format,
        queue=queue,
        resource=resource,
        flavor_map=_flavor_map(flavor_map),
        into=base,
    )
    return Imported(out, warn(w))


def import_history(*args, **kwargs) -> Imported:
    """Job records as a scenario's jobs (SPEC 16, ``quotasim import history``).

    Not available yet: the engine has no ``config::history`` module in this build.
    """
    raise NotImplementedError(
        "quotalab.import_history needs the engine's config::history::import "
        "(`quotasim import history`), which this build of the engine does not have yet"
    )


def export_config(
    scenario: Source,
    format: str = "kueue",
    *,
    queue: Optional[str] = None,
    resource: Optional[str] = None,
) -> Exported:
    """A scenario's shares as a real configuration: ``quotasim export aws|kueue FILE``.

    ``format``: ``"kueue"`` (YAML for ``kubectl apply``), ``"aws"`` (one JSON array of
    request bodies) or ``"aws-script"`` (``aws batch`` commands, ``export aws --script``).
    """
    out, w = _engine(
        _quotalab.export_config,
        text_of(scenario, bounded=True),
        format,
        queue=queue,
        resource=resource,
    )
    return Exported(out, warn(w))
