"""The CLI's commands as functions: each calls the engine function ``quotasim`` calls."""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Mapping, Sequence
from typing import Optional, Union

from . import _quotalab
from ._errors import ScenarioError
from ._input import Source, _engine, _is_text, read, text_of, warn
from ._results import Comparison, Exported, Imported, Report, Result, Review, Validation

__all__ = [
    "compare",
    "export_config",
    "import_config",
    "import_history",
    "report",
    "review",
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


def report(scenario: Source, *, compare: bool = False, review: Optional[Source] = None) -> Report:
    """The self-contained HTML report: ``quotasim report FILE [--compare] [--review
    PROPOSED] -o OUT`` (the ``html`` is the file's bytes).

    ``review``: a proposed configuration (AWS Batch JSON, Kueue YAML or a scenario; a path,
    text or a dict) reviewed on the scenario's jobs as `review` does, its per-share tables
    after the summary (SPEC 16). Read as the CLI reads it (at most 8 MiB); the report names
    it by its path (``<text>``, ``<dict>`` otherwise).
    """
    proposed = read(review, bounded=True, what="proposal") if review is not None else None
    html, w = _engine(_quotalab.report, text_of(scenario), compare=compare, review=proposed)
    return Report(html, warn(w))


ConfigSource = Union[Source, Sequence[Source]]
Time = Union[str, int, float, _dt.date]
"""A time of ``import_history``'s window: ISO 8601 text (``"2026-03-01T08:00:00Z"``,
``"2026-03-01"``), epoch seconds, or a ``datetime`` with a time zone (or a ``date``)."""


def _flavor_map(m: Union[str, Mapping[str, str], None]) -> Optional[str]:
    if m is None or isinstance(m, str):
        return m
    return ",".join(f"{k}={v}" for k, v in m.items())


def _sources(files: Optional[ConfigSource]) -> list[Source]:
    """One input or a list of them, as a list."""
    if files is None:
        return []
    if isinstance(files, (str, bytes, bytearray, memoryview, os.PathLike, Mapping)):
        return [files]
    return list(files)


# Which formats take which option (the CLI's subcommands: an option another format does
# not have is refused rather than ignored).
_IMPORT_OPTIONS = {
    "queue": ("aws",),
    "resource": ("kueue",),
    "flavor_map": ("kueue",),
    "cluster": ("hyperpod",),
}


def import_config(
    files: ConfigSource,
    format: Optional[str] = None,
    *,
    queue: Optional[str] = None,
    resource: Optional[str] = None,
    flavor_map: Union[str, Mapping[str, str], None] = None,
    cluster: Optional[str] = None,
    into: Optional[Source] = None,
) -> Imported:
    """A real quota configuration as a scenario: ``quotasim import aws|kueue|hyperpod
    FILE...``.

    ``files``: one input or a list (paths, YAML/JSON/shell text, or dicts). ``format``:
    ``"aws"`` (AWS Batch quota-share JSON), ``"kueue"`` (Kueue YAML) or ``"hyperpod"``
    (SageMaker HyperPod task governance: CreateComputeQuota / CreateClusterSchedulerConfig
    JSON or ``aws sagemaker`` command lines); ``None`` guesses ``aws`` or ``kueue`` from the
    first file's content (JSON is AWS, anything else Kueue; HyperPod is never guessed).
    ``queue`` (AWS), ``resource`` and ``flavor_map`` (Kueue: ``"a100=ml.p4d.24xlarge"`` or a
    dict), ``cluster`` (HyperPod: the cluster ARN or id whose quotas are imported) and
    ``into`` (keep that scenario's workloads, jobs and events) are the CLI's options; an
    option the format does not take raises ``TypeError``. Files over 8 MiB are refused as by
    the CLI. Returns `Imported` (``.json``, ``.scenario``).
    """
    named = [read(f, bounded=True, what="configuration") for f in _sources(files)]
    if format is None:
        format = (_quotalab.detect_format(named[0][1]) if named else None) or "kueue"
    given = {"queue": queue, "resource": resource, "flavor_map": flavor_map, "cluster": cluster}
    for option, value in given.items():
        formats = _IMPORT_OPTIONS[option]
        if value is not None and format in ("aws", "kueue", "hyperpod") and format not in formats:
            raise TypeError(f"{option}= is an option of format {formats[0]!r}, not {format!r}")
    base = text_of(into, bounded=True) if into is not None else None
    out, w = _engine(
        _quotalab.import_config,
        named,
        format,
        queue=queue,
        resource=resource,
        flavor_map=_flavor_map(flavor_map),
        into=base,
        cluster=cluster,
    )
    return Imported(out, warn(w))


def _time(t: Optional[Time], name: str) -> Optional[str]:
    """A window's end as the CLI's ``--from``/``--to`` text."""
    if t is None or isinstance(t, str):
        return t
    if isinstance(t, bool):
        raise TypeError(
            f"{name} is a time (ISO 8601 text, epoch seconds or a datetime), not a bool"
        )
    if isinstance(t, _dt.datetime):
        if t.tzinfo is None or t.utcoffset() is None:
            raise ValueError(
                f"{name}: the datetime {t.isoformat()} has no time zone; give one "
                "(e.g. tzinfo=datetime.timezone.utc) or ISO 8601 text"
            )
        return t.isoformat()
    if isinstance(t, _dt.date):
        return t.isoformat()
    if isinstance(t, int):
        return str(t)
    if isinstance(t, float):
        return repr(t) if "e" not in repr(t) else f"{t:f}"
    raise TypeError(
        f"{name} is a time (ISO 8601 text, epoch seconds or a datetime), not {type(t).__name__}"
    )


def import_history(
    files: ConfigSource,
    *,
    config: Optional[ConfigSource] = None,
    into: Optional[Source] = None,
    from_: Optional[Time] = None,
    to: Optional[Time] = None,
    resource: Optional[str] = None,
    flavor_map: Union[str, Mapping[str, str], None] = None,
    queue: Optional[str] = None,
) -> Imported:
    """A cluster's job history as a scenario's jobs: ``quotasim import history FILE...``
    (SPEC 16).

    ``files``: one history or a list (paths, text or dicts): Kueue Workloads as ``kubectl
    get workloads -A -o yaml|json`` prints them (LocalQueues may come along) or AWS Batch
    jobs as ``aws batch describe-jobs`` / ``list-jobs`` / ``list-service-jobs`` print them;
    each file's format is recognised from its content. The shares come from ``config``
    (``--config``: one configuration or a list, AWS Batch JSON or Kueue YAML; its
    LocalQueues place workloads not yet admitted) and/or ``into`` (``--into``: a scenario,
    whose jobs, workloads and events are replaced by the history); one of them is required.
    ``from_`` and ``to`` (``--from``/``--to``) cut the window: ISO 8601 text, epoch seconds
    or a time-zone-aware ``datetime``; ``to`` is also the end of the history (jobs still
    running run until it). ``resource`` and ``flavor_map`` (Kueue) and ``queue`` (an AWS
    configuration's job queue) are the CLI's options.

    Returns `Imported`: ``.json`` is byte for byte what ``quotasim import history`` prints
    for the same files and options. Warnings (jobs still running, evictions seen, records
    skipped) are issued as `ScenarioWarning`; problems raise `ScenarioError` with the CLI's
    lines (each naming the file when there are several, the document and the path). A
    history file is read record by record as by the CLI: any size up to 2 GiB and a million
    records, each record at most 8 MiB; configurations are bounded at 8 MiB.
    """
    configs = _sources(config)
    if not configs and into is None:
        line = _quotalab.HISTORY_NEEDS_SHARES
        raise ScenarioError([("", line, line)])
    named = [_history_source(f) for f in _sources(files)]
    configs = [read(f, bounded=True, what="configuration") for f in configs]
    base = read(into, bounded=True) if into is not None else None
    out, w = _engine(
        _quotalab.import_history,
        named,
        configs,
        into=base,
        from_=_time(from_, "from_"),
        to=_time(to, "to"),
        resource=resource,
        flavor_map=_flavor_map(flavor_map),
        queue=queue,
    )
    return Imported(out, warn(w))


def _history_source(source: Source) -> tuple[str, Optional[str]]:
    """``(path, None)`` for a file, which the engine reads in pieces (SPEC 16), else
    ``(name, text)``."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not _is_text(source)):
        path = os.fspath(source)
        return (path if isinstance(path, str) else os.fsdecode(path)), None
    return read(source, what="job history")


def review(
    current: Source,
    proposed: Source,
    *,
    jobs: Optional[Source] = None,
    seeds: Optional[int] = None,
    fail_on: Union[str, Sequence[str]] = (),
    resource: Optional[str] = None,
    flavor_map: Union[str, Mapping[str, str], None] = None,
    queue: Optional[str] = None,
) -> Review:
    """Two configurations on the same jobs, per share: ``quotasim review CURRENT PROPOSED``
    (SPEC 16, "Reviewing a change").

    ``current`` and ``proposed``: AWS Batch JSON, Kueue YAML or scenarios (paths, text or
    dicts). ``jobs`` (``--jobs``): a scenario whose workloads, jobs and events both run, or
    a job history (Kueue Workloads, AWS Batch jobs) replayed on CURRENT's shares; by
    default CURRENT's own (CURRENT must then be a scenario with jobs). ``seeds``: runs per
    configuration (default 1 when nothing is random, else 10). ``fail_on``: rules such as
    ``"deadline_misses>0"`` or ``"completion_p90>+10%"`` (``--fail-on``, one or a list);
    ``resource``, ``flavor_map`` and ``queue`` read Kueue and AWS files as the CLI's options
    do. Every seed's two runs go to the cores in parallel, without the GIL.

    Returns `Review`: ``.json`` is byte for byte ``quotasim review --json``, ``.text`` the
    table it prints without ``--json``, ``.shares`` a DataFrame of every share's table
    (worst first), ``.failed`` whether a rule was crossed (the CLI then exits 1) and
    ``.crossed`` the lines it writes for them. Bad input raises `ScenarioError` with the
    CLI's problems, each naming its file and path.
    """
    if isinstance(fail_on, str):
        fail_on = [fail_on]
    if seeds is not None and (isinstance(seeds, bool) or not isinstance(seeds, int)):
        raise TypeError(f"seeds is a whole number, not {type(seeds).__name__}")
    if seeds is not None and not 0 <= seeds < 2**64:
        # What the engine says of 0 and of too many; a u64 holds neither of these.
        msg = (
            "must be at least 1"
            if seeds < 0
            else f"{seeds} is over the limit of {_quotalab.REVIEW_MAX_SEEDS}"
        )
        raise ScenarioError([("--seeds", msg, f"--seeds: {msg}")])
    cur = read(current, what="configuration")
    pro = read(proposed, what="configuration")
    jobs_in = read(jobs, what="scenario or job history") if jobs is not None else None
    out, table, crossed, w = _engine(
        _quotalab.review,
        cur,
        pro,
        jobs=jobs_in,
        seeds=seeds,
        fail_on=list(fail_on),
        resource=resource,
        flavor_map=_flavor_map(flavor_map),
        queue=queue,
    )
    return Review(out, table, crossed, warn(w))


def export_config(
    scenario: Source,
    format: str = "kueue",
    *,
    queue: Optional[str] = None,
    resource: Optional[str] = None,
    cluster_arn: Optional[str] = None,
) -> Exported:
    """A scenario's shares as a real configuration: ``quotasim export aws|kueue|hyperpod
    FILE``.

    ``format``: ``"kueue"`` (YAML for ``kubectl apply``; a scenario imported from Kueue files
    is written over them), ``"kueue-patch"`` (``export kueue --patch``: one JSON merge patch
    per changed object), ``"aws"`` (one JSON array of request bodies), ``"aws-script"``
    (``aws batch`` commands, ``export aws --script``), ``"hyperpod"`` (SageMaker HyperPod
    task governance: a CreateClusterSchedulerConfig body and a CreateComputeQuota body per
    share) or ``"hyperpod-script"`` (``aws sagemaker`` commands, ``export hyperpod
    --script``). ``queue`` (AWS), ``resource`` (Kueue) and ``cluster_arn`` (HyperPod, default
    ``$CLUSTER_ARN``) are the CLI's options; one the format does not take raises
    ``TypeError``.
    """
    family = format.split("-")[0]
    owners = {"queue": "aws", "resource": "kueue", "cluster_arn": "hyperpod"}
    given = {"queue": queue, "resource": resource, "cluster_arn": cluster_arn}
    for option, value in given.items():
        if value is not None and family in owners.values() and owners[option] != family:
            raise TypeError(f"{option}= is an option of format {owners[option]!r}, not {format!r}")
    out, w = _engine(
        _quotalab.export_config,
        text_of(scenario, bounded=True),
        format,
        queue=queue,
        resource=resource,
        cluster_arn=cluster_arn,
    )
    return Exported(out, warn(w))
