"""The twin restates the core's limits and defaults (Python cannot import them from C++): each is
checked here against the built core's own (models.modelLimits), so a change there fails here."""

import json

from conftest import run_core
from posenc_lab import config, tasks
from posenc_lab.adamw import AdamWOptions
from posenc_lab.config import float32


def test_limits_and_defaults_are_the_cores(tmp_path):
    core = json.loads((run_core({"cases": []}, tmp_path / "core") / "limits.json").read_text())
    assert core["maxVocab"] == config.MAX_VOCAB
    assert core["maxWidth"] == config.MAX_WIDTH
    assert core["maxLayers"] == config.MAX_LAYERS
    assert core["maxHeads"] == config.MAX_HEADS
    assert core["maxContext"] == config.MAX_CONTEXT == tasks.MAX_CONTEXT
    assert core["maxParameters"] == config.MAX_PARAMETERS
    assert core["maxBatch"] == tasks.MAX_BATCH
    assert core["maxSymbols"] == tasks.MAX_SYMBOLS
    assert core["defaultHeldOutPercent"] == tasks.DEFAULT_HELD_OUT_PERCENT
    assert core["syntheticKinds"] == list(tasks.SYNTHETIC_KINDS)
    defaults = AdamWOptions()
    for name, value in core["adamw"].items():
        assert getattr(defaults, name) == float32(value), name
