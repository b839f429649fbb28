"""posenc_lab.show: the HTML a notebook displays holds one map per layer and head, each cell's
opacity the model's attention weight, with IPython's display protocol."""

import re

import pytest
import torch

from posenc_lab import ModelConfig, PosencModel, show


def model_with_characters():
    vocab = list(" acehmst")
    model = PosencModel(ModelConfig(scheme="alibi", vocab=len(vocab), d=8, layers=2, heads=2, context=16))
    model.vocab = vocab
    return model


def test_the_html_draws_every_head_with_its_weights(tmp_path):
    model = model_with_characters()
    path = tmp_path / "m.safetensors"
    model.save(str(path))
    shown = show(str(path), "the cat")
    page = shown._repr_html_()
    assert page.count("<svg") == 4 and "layer 2, head 2" in page
    assert "<script" not in page and "http" not in page.replace("http://www.w3.org/2000/svg", "")
    weights = shown.attention
    assert weights.shape == (2, 2, 7, 7)
    opacities = [float(x) for x in re.findall(r'fill-opacity="([0-9.]+)"', page)]
    causal = [float(weights[l, h, i, j]) for l in range(2) for h in range(2) for i in range(7) for j in range(i + 1)]
    assert opacities == pytest.approx(causal, abs=5e-5)  # printed with 4 decimals
    assert torch.allclose(weights, PosencModel.load(str(path)).attention([7, 4, 3, 0, 2, 1, 7]))


def test_ipython_displays_it():
    formatter = pytest.importorskip("IPython.core.formatters")
    shown = show(model_with_characters(), "a cat")
    data = formatter.HTMLFormatter()(shown)
    assert data.startswith('<div class="posenc-lab-show"')


def test_refusals_name_the_argument():
    model = model_with_characters()
    with pytest.raises(ValueError, match="sentence has 'z'"):
        show(model, "zebra")
    with pytest.raises(ValueError, match="panel must be"):
        show(model, "cat", panel="terms")


def test_chromium_renders_the_html(tmp_path):
    """The page a notebook shows, opened in headless Chromium: its DOM holds every head's map."""
    import os
    import shutil
    import subprocess
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("POSENC_REQUIRE_CORE") == "1":
            pytest.fail("chromium is missing (./scripts/setup installs it)")
        pytest.skip("chromium is missing")
    page = tmp_path / "show.html"
    page.write_text("<!doctype html><meta charset=utf-8><body>" + show(model_with_characters(), "the cat")._repr_html_(),
                    encoding="utf-8")
    done = subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync", "--no-first-run",
                           f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert dom.count("<svg") == 4 and dom.count("<rect") == 4 * (28 + 1)  # 28 causal cells + a frame each
    assert "layer 1, head 1" in dom and "layer 2, head 2" in dom


def test_a_word_model_reads_words_and_unknown_ones_as_unk():
    vocab = ["the", "cat", "sat", "<unk>"]
    model = PosencModel(ModelConfig(scheme="rotary", vocab=4, d=8, layers=1, heads=2, context=8))
    model.vocab = vocab
    shown = show(model, "the zebra sat")
    assert shown.tokens == [0, 3, 2]
    assert "&lt;unk&gt;" in shown._repr_html_()
