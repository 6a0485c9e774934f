"""docs/examples/quota-question.ipynb runs top to bottom (nbclient, this interpreter)."""

from __future__ import annotations

import pytest
from conftest import ROOT

NOTEBOOK = ROOT / "docs" / "examples" / "quota-question.ipynb"


def test_the_notebook_runs_top_to_bottom():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("matplotlib")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": NOTEBOOK.parent}}
    )
    client.execute()  # raises CellExecutionError on any failing cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    # The bands were drawn, and the reading's lines printed for every limit.
    assert any("image/png" in o.get("data", {}) for o in outputs)
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    for limit in (0, 16, 32, 48, 64):
        assert f"borrow up to {limit:>2} GPUs" in text
