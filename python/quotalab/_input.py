"""How a scenario (or a configuration) reaches the engine: a path, text or a dict."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Union

from . import _quotalab
from ._errors import Problem, ScenarioError, ScenarioWarning

Source = Union[str, "os.PathLike[str]", bytes, Mapping[str, Any]]
"""An input: a path (``str`` or ``os.PathLike``), the text itself (``str`` starting with
``{`` or ``[``, or any ``str`` with a newline; ``bytes`` as UTF-8) or a dict."""


def _is_text(s: str) -> bool:
    t = s.lstrip("\ufeff \t\r\n")
    return t == "" or t[0] in "{[" or "\n" in s


def _engine(call, *args, **kwargs):
    """Calls the native module, turning its refusals into `ScenarioError`."""
    try:
        return call(*args, **kwargs)
    except _quotalab.EngineError as e:
        problems = e.args[0]
    # Raised outside the handler: no engine exception in its context, so it pickles alone
    # (process pools, Dask and Ray send it back from the workers).
    raise ScenarioError(problems)


def read(source: Source, *, bounded: bool = False, what: str = "scenario") -> tuple[str, str]:
    """``(name, text)`` of an input. Files are read as the CLI reads them (``bounded``: the
    8 MiB limit of imports and exports), with its messages."""
    if isinstance(source, Mapping):
        try:
            return "<dict>", json.dumps(source, ensure_ascii=False, allow_nan=False)
        except RecursionError:
            raise ScenarioError(
                [("", f"the {what} is nested too deeply", f"the {what} is nested too deeply")]
            ) from None
        except (TypeError, ValueError) as e:
            msg = f"the {what} is not JSON: {e}"
            raise ScenarioError([("", msg, msg)]) from None
    if isinstance(source, (bytes, bytearray, memoryview)):
        try:
            return "<bytes>", bytes(source).decode("utf-8")
        except UnicodeDecodeError:
            msg = "is not UTF-8 text"
            raise ScenarioError([("", msg, msg)]) from None
    if isinstance(source, str) and _is_text(source):
        return "<text>", source
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not isinstance(path, str):
            path = os.fsdecode(path)
        reader = _quotalab.read_bounded if bounded else _quotalab.read_input
        return path, _engine(reader, path)
    raise TypeError(
        f"a {what} is a path (str or os.PathLike), JSON text or a dict, not {type(source).__name__}"
    )


def text_of(source: Source, *, bounded: bool = False, what: str = "scenario") -> str:
    return read(source, bounded=bounded, what=what)[1]


def problems(triples: Sequence[tuple[str, str, str]]) -> list[Problem]:
    return [(p, m) for p, m, _ in triples]


def warn(triples: Sequence[tuple[str, str, str]], stacklevel: int = 3) -> list[Problem]:
    """Issues each warning as a `ScenarioWarning` (``PATH: MESSAGE``) and returns them as
    ``(path, message)``."""
    for _, _, line in triples:
        warnings.warn(line, ScenarioWarning, stacklevel=stacklevel)
    return problems(triples)
