"""posenc_lab.show: the HTML a notebook displays is the <posenc-lab> element with the model, in an
iframe srcdoc, self-contained (the element's one-file build inline, the model as a data: URL), the
sentence only ever an escaped attribute value; IPython's display protocol shows it; refusals name
their argument. tests/e2e/show.test.mjs checks the same HTML in Chromium against the twin's weights."""

import base64
import json
import os
import pathlib
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
import torch

from conftest import DIST
from posenc_lab import ModelConfig, PosencModel, show
from posenc_lab.show import DIST_ENV, STANDALONE

NEED_BUILD = f"the element's one-file build ({DIST / STANDALONE}) is missing: run ./scripts/build"


@pytest.fixture(autouse=True)
def built_element(monkeypatch):
    """show() needs dist/posenc-lab-standalone.js; a missing build skips (fails under ./scripts/test)."""
    if not (DIST / STANDALONE).is_file():
        if os.environ.get("POSENC_REQUIRE_CORE") == "1":
            pytest.fail(NEED_BUILD)
        pytest.skip(NEED_BUILD)
    monkeypatch.setenv(DIST_ENV, str(DIST))


def model_with_characters():
    vocab = list(" acehmst")
    model = PosencModel(ModelConfig(scheme="alibi", vocab=len(vocab), d=8, layers=2, heads=2, context=16))
    model.vocab = vocab
    return model


def word_model():
    vocab = ["the", "cat", "sat", "'s", ".", "<unk>"]
    model = PosencModel(ModelConfig(scheme="rotary", vocab=len(vocab), d=8, layers=1, heads=2, context=8))
    model.vocab = vocab
    return model


class Elements(HTMLParser):
    """Every start tag's (name, attributes), attribute values unescaped as a browser reads them."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def first(self, name):
        return next(attrs for tag, attrs in self.tags if tag == name)


def test_the_html_is_the_element_with_the_model_in_an_iframe_and_needs_no_other_file(tmp_path):
    model = model_with_characters()
    path = tmp_path / "m.safetensors"
    model.save(str(path))
    shown = show(str(path), "the cat")
    outer = shown._repr_html_()
    frame = Elements(outer).first("iframe")
    assert frame["sandbox"] == "allow-scripts allow-downloads"
    page = frame["srcdoc"]
    assert page == shown.page()
    # One document: no URL to fetch from anywhere, no src= to a file, the element's script inline.
    # (The SVG export writes the SVG namespace, an identifier that is never fetched.)
    assert not re.search(r"https?://", outer.replace("http://www.w3.org/2000/svg", ""))
    assert (DIST / STANDALONE).read_text(encoding="utf-8") in page
    for tag, attrs in Elements(outer).tags + Elements(page).tags:
        assert not {"src", "href"} & set(attrs), f"<{tag}> refers to a file"
    element = Elements(page).first("posenc-lab")
    assert element["sentence"] == "the cat" and element["panel"] == "attention"
    prefix = "data:application/octet-stream;base64,"
    assert element["model-src"].startswith(prefix)
    # The data: URL holds the model's weights as the twin has them (F32, bit for bit).
    loaded = PosencModel.from_bytes(base64.b64decode(element["model-src"][len(prefix):]))
    assert loaded.vocab == model.vocab
    for (name, a), (_, b) in zip(loaded.named_tensors().items(), model.named_tensors().items()):
        assert torch.equal(a, b), name
    assert shown.attention.shape == (2, 2, 7, 7)
    assert torch.allclose(shown.attention, model.attention([7, 4, 3, 0, 2, 1, 7]))


def test_the_sentence_is_text_never_markup():
    sentence = '"><script>alert(1)</script> & <b>the</b> cat\'s'
    shown = show(word_model(), sentence)
    page = shown.page()
    assert "<script>alert" not in page and "<b>" not in page
    assert Elements(page).first("posenc-lab")["sentence"] == sentence
    assert [tag for tag, _ in Elements(page).tags].count("script") == 2  # the element's, and the height report
    assert Elements(shown._repr_html_()).first("iframe")["srcdoc"] == page


def test_ipython_displays_it():
    formatter = pytest.importorskip("IPython.core.formatters")
    shown = show(model_with_characters(), "a cat")
    data = formatter.HTMLFormatter()(shown)
    assert data.startswith('<iframe id="posenc-lab-') and 'class="posenc-lab-show"' in data


def test_refusals_name_the_argument(tmp_path, monkeypatch):
    model = model_with_characters()
    with pytest.raises(ValueError, match=r"sentence has \"z\" \(character 1\), which is not in the model's vocabulary of 8"):
        show(model, "zebra")
    with pytest.raises(ValueError, match="sentence has no tokens"):
        show(model, "")
    with pytest.raises(TypeError, match="sentence must be a str"):
        show(model, 42)
    with pytest.raises(ValueError, match="panel must be 'attention', got 'terms'"):
        show(model, "cat", panel="terms")
    with pytest.raises(TypeError, match="model_or_path must be a PosencModel or a path"):
        show(3, "cat")
    no_vocab = PosencModel(ModelConfig(scheme="alibi", vocab=8, d=8, layers=1, heads=2, context=16))
    with pytest.raises(ValueError, match="the model has no vocabulary"):
        show(no_vocab, "cat")
    learned = PosencModel(ModelConfig(scheme="learned", vocab=8, d=8, layers=1, heads=2, context=4))
    learned.vocab = model.vocab
    with pytest.raises(ValueError, match="n must be at most context = 4 for a learned table"):
        show(learned, "the cat")  # 7 characters, a table of 4 rows: the core refuses it too
    monkeypatch.setenv(DIST_ENV, str(tmp_path))
    with pytest.raises(FileNotFoundError, match=f"{STANDALONE} is missing.*./scripts/build.*{DIST_ENV}"):
        show(model, "cat")


def test_a_word_model_reads_the_labs_tokens_and_unknown_ones_as_unk():
    shown = show(word_model(), "The zebra's cat sat.")
    # The lab's tokenizer: lowercased, the clitic and the full stop split off.
    assert shown.pieces == ["the", "<unk>", "'s", "cat", "sat", "."]
    assert shown.tokens == [0, 5, 3, 1, 2, 4]


def test_a_task_model_reads_token_names():
    vocab = ["<sep>", "1", "2", "3"]
    model = PosencModel(ModelConfig(scheme="nope", vocab=4, d=8, layers=1, heads=2, context=8))
    model.vocab = vocab
    assert show(model, "1 2 <sep> 2 1").tokens == [1, 2, 0, 2, 1]
    with pytest.raises(ValueError, match=r"sentence has \"4\" \(token 2\), which is not in the model's vocabulary of 4 tokens"):
        show(model, "1 4")


def test_chromium_draws_every_head_of_the_page(tmp_path):
    """The page show() puts in its iframe, opened alone from a file in headless Chromium
    (show_render.mjs): the element draws one map per layer and head (the frame itself, and the
    weights against the twin's, are checked by tests/e2e/show.test.mjs)."""
    missing = [name for name in ("chromium", "node") if shutil.which(name) is None]
    if missing:
        if os.environ.get("POSENC_REQUIRE_CORE") == "1":
            pytest.fail(f"{' and '.join(missing)} missing (./scripts/setup installs them)")
        pytest.skip(f"{' and '.join(missing)} missing")
    page = tmp_path / "show.html"
    page.write_text(show(model_with_characters(), "the cat").page(), encoding="utf-8")
    done = subprocess.run(["node", str(pathlib.Path(__file__).with_name("show_render.mjs")), str(page), "4"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    shown = json.loads(done.stdout)
    assert shown["maps"] == 4 and shown["problems"] == []
    assert shown["titles"] == ["layer 1, head 1", "layer 1, head 2", "layer 2, head 1", "layer 2, head 2"]
    assert shown["status"].startswith("7 tokens, alibi model of 2 layers × 2 heads")
