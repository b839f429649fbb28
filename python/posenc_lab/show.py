"""posenc_lab.show(model_or_path, sentence): a trained model's heads on a sentence in the lab's own
`<posenc-lab>` element, as an object Jupyter and IPython display (_repr_html_).

The HTML is self-contained, for a notebook with no server and no network: an <iframe srcdoc>
whose document holds the element's one-file build (posenc-lab-standalone.js: the element, its
WebAssembly cores and the model core, inline) and the model's weights file as a data: URL
(base64). The element draws every layer's and head's attention map on the sentence, and the
reader may type another sentence. The iframe keeps each show() apart (its own document, its own
custom-element registry) and is sandboxed to scripts and downloads (the figure's Export menu: PNG,
SVG, CSV, JSON) in an opaque origin: it cannot reach the notebook's page. Shown.attention holds the same weights computed here by the twin.

Tokens follow the element's rule (docs/MODELS.md, "Showing a model"): a word-level model (its
vocabulary holds <unk>) reads the lab's tokens, an unknown word as <unk>; a model whose every
token is one character reads the sentence character by character; any other (copy, reverse,
sort: "<sep>", "3") reads whitespace-separated token names.

The built script is found in $POSENC_LAB_DIST, else in the checkout's dist/ (./scripts/build).
"""

from __future__ import annotations

import base64
import html
import json
import os
import pathlib
import re
from typing import List, Optional, Union

import torch

from . import tokenizer
from .model import PosencModel
from .vectors import UNKNOWN_TOKEN

PANELS = ("attention",)
DIST_ENV = "POSENC_LAB_DIST"
STANDALONE = "posenc-lab-standalone.js"
# Until the frame reports its document's height (a script in the output: trusted notebooks run it),
# it takes this many px per row of maps, plus the sentence, the legend and the notes around them.
FRAME_BASE_PX = 260
FRAME_ROW_PX = 300


def standalone_script() -> pathlib.Path:
    """The element's one-file build: $POSENC_LAB_DIST/posenc-lab-standalone.js, else the checkout's."""
    given = os.environ.get(DIST_ENV)
    folder = pathlib.Path(given) if given else pathlib.Path(__file__).resolve().parents[2] / "dist"
    path = folder / STANDALONE
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: show() inlines the <posenc-lab> element's one-file build. Build it with "
            f"./scripts/build in a PosEnc Lab checkout, or set {DIST_ENV} to a folder holding {STANDALONE} "
            "(the npm package posenc-lab's dist/)")
    return path


def pieces_of(model: PosencModel, sentence: str) -> List[str]:
    """The sentence's pieces as the model reads them (before the vocabulary lookup)."""
    vocab = model.vocab
    if UNKNOWN_TOKEN in vocab:
        return tokenizer.tokenize(sentence)
    if all(len(t) == 1 for t in vocab):
        return list(sentence)
    return sentence.split()


def tokenize(model: PosencModel, sentence: str) -> List[int]:
    """The sentence as the model's ids, by the element's rule (see the module's docstring)."""
    if not isinstance(sentence, str):
        raise TypeError(f"sentence must be a str, got {type(sentence).__name__}")
    vocab = model.vocab
    if vocab is None:
        raise ValueError("the model has no vocabulary (its file has no __metadata__.vocab), so it cannot read a sentence")
    index = {t: i for i, t in enumerate(vocab)}
    unknown = index.get(UNKNOWN_TOKEN)
    pieces = pieces_of(model, sentence)
    characters = unknown is None and all(len(t) == 1 for t in vocab)
    for i, piece in enumerate(pieces):
        if piece not in index and unknown is None:
            kind = ("character", "characters") if characters else ("token", "tokens")
            raise ValueError(f"sentence has {json.dumps(piece, ensure_ascii=False)} ({kind[0]} {i + 1}), which is not in "
                             f"the model's vocabulary of {len(vocab)} {kind[1]}")
    if not pieces:
        raise ValueError("sentence has no tokens for this model")
    return [index.get(p, unknown) for p in pieces]


def _inline_script(path: pathlib.Path) -> str:
    text = path.read_text(encoding="utf-8")
    # Inside <script>…</script> these would end the script or change how it is parsed.
    if re.search(r"</script|<!--", text, re.IGNORECASE):
        raise ValueError(f"{path} holds '</script' or '<!--', so it cannot be inlined; rebuild it")
    return text


class Shown:
    """What show() returns: .attention ([L, h, n, n], the twin's), .tokens (ids), .pieces, .page()
    (the element's standalone HTML document) and _repr_html_ (that document in an iframe)."""

    def __init__(self, model: PosencModel, sentence: str, tokens: List[int], attention: torch.Tensor, name: str,
                 script: pathlib.Path):
        self.model, self.sentence, self.tokens, self.attention, self.name = model, sentence, tokens, attention, name
        self.pieces = [model.vocab[t] for t in tokens]
        self._script = script

    def page(self) -> str:
        """The standalone HTML document: the element with the model, needing no other file."""
        weights = base64.b64encode(self.model.to_bytes("F32")).decode("ascii")
        attr = lambda text: html.escape(text, quote=True)  # noqa: E731 (user text only ever as attribute values)
        return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>{html.escape(self.name)}: attention heads</title>"
                "<style>html,body{margin:0;background:#fff}</style></head><body>"
                f"<posenc-lab sentence=\"{attr(self.sentence)}\" panel=\"attention\" vectors=\"synthetic\" controls=\"export\" "
                f"model-src=\"data:application/octet-stream;base64,{weights}\"></posenc-lab>"
                f"<script>{_inline_script(self._script)}</script>"
                # The frame's height to the notebook's page (its script below sets it).
                "<script>new ResizeObserver(() => parent.postMessage({ posencLabHeight: "
                "document.documentElement.scrollHeight }, '*')).observe(document.documentElement);</script>"
                "</body></html>")

    def frame_height(self) -> int:
        """The iframe's height before its document reports one: one row of maps per layer."""
        return FRAME_BASE_PX + FRAME_ROW_PX * self.model.config.layers

    def _repr_html_(self) -> str:
        frame = f"posenc-lab-{id(self):x}"
        return (f'<iframe id="{frame}" class="posenc-lab-show" title="{html.escape(self.name)}: attention heads" '
                f'sandbox="allow-scripts allow-downloads" style="width:100%;height:{self.frame_height()}px;border:0" '
                f'srcdoc="{html.escape(self.page(), quote=True)}"></iframe>'
                "<script>(() => { const frame = document.getElementById('" + frame + "'); "
                "addEventListener('message', (event) => { const h = event.data && event.data.posencLabHeight; "
                "if (frame && event.source === frame.contentWindow && h > 0) frame.style.height = `${Math.ceil(h)}px`; }); })();"
                "</script>")


def show(model_or_path: Union[PosencModel, str, os.PathLike], sentence: str, panel: str = "attention",
         rope: str = "none", factor: Optional[float] = None) -> Shown:
    """The model's heads on sentence, displayed by Jupyter and IPython; see the module's docstring.
    rope, factor: the twin's RoPE scaling for Shown.attention (the element shows the model unscaled)."""
    if panel not in PANELS:
        raise ValueError("panel must be " + " or ".join(repr(p) for p in PANELS) + f", got {panel!r}")
    if isinstance(model_or_path, PosencModel):
        model, name = model_or_path, "model"
    elif isinstance(model_or_path, (str, os.PathLike)):
        model, name = PosencModel.load(os.fspath(model_or_path)), os.path.basename(os.fspath(model_or_path))
    else:
        raise TypeError(f"model_or_path must be a PosencModel or a path, got {type(model_or_path).__name__}")
    tokens = tokenize(model, sentence)
    attention = model.attention(tokens, rope, factor).cpu()
    return Shown(model, sentence, tokens, attention, name, standalone_script())
