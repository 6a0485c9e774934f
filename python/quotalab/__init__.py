"""Quota Lab for Python: the GPU-quota simulator's engine, the one ``quotasim`` runs.

Every function takes a scenario as a path, JSON text or a dict, calls the engine function
the matching ``quotasim`` command calls, and returns the CLI's exact text (``.json``) with
its tables as pandas DataFrames::

    import quotalab
    r = quotalab.run("www/presets/aws-walkthrough.json")
    r.shares[["jobs.succeeded", "completion_s.p90"]]
    df = quotalab.sweep(scenario, vary={"shares[0].borrow_limit": "0..200:50"}, seeds=20,
                        executor="ray")

Refusals raise `ScenarioError` (a ``ValueError``) with ``.problems``, ``(path, message)``
each, and the CLI's error lines as its message.
"""

from ._api import (
    compare,
    export_config,
    import_config,
    import_history,
    report,
    run,
    summary,
    validate,
)
from ._errors import ScenarioError, ScenarioWarning
from ._quotalab import MAX_FILE_BYTES, VERSION
from ._results import Comparison, Exported, Imported, Report, Result, Validation
from ._sweep import sweep, sweep_lines

__version__ = VERSION

__all__ = [
    "MAX_FILE_BYTES",
    "Comparison",
    "Exported",
    "Imported",
    "Report",
    "Result",
    "ScenarioError",
    "ScenarioWarning",
    "Validation",
    "__version__",
    "compare",
    "export_config",
    "import_config",
    "import_history",
    "report",
    "run",
    "summary",
    "sweep",
    "sweep_lines",
    "validate",
]
