"""posenc_lab.show(model_or_path, sentence): a trained model's attention heads on a sentence, as an
object Jupyter and IPython display (_repr_html_): self-contained HTML (inline SVG, no script, no
server, no CDN), one map per layer and head, row = query token, column = key token, darker =
more weight (each cell's opacity is its weight).

Tokens: a character model (every vocabulary entry one character) reads the sentence character
by character; other models read whitespace-separated token names (copy/reverse/sort: "<sep>",
"3"; a word model: its words, separated as its tokenizer would, an unknown word read as <unk>).
"""

from __future__ import annotations

import html
from typing import List, Optional, Union

import torch

from .model import PosencModel
from .vectors import UNKNOWN_TOKEN

PANELS = ("attention",)
CELL = 14  # px per cell


def tokenize(model: PosencModel, sentence: str) -> List[int]:
    vocab = model.vocab
    if vocab is None:
        raise ValueError("the model has no vocabulary (its file has no __metadata__.vocab): pass token ids")
    pieces = list(sentence) if all(len(t) == 1 for t in vocab) else sentence.split()
    index = {t: i for i, t in enumerate(vocab)}
    unknown = index.get(UNKNOWN_TOKEN)
    for i, piece in enumerate(pieces):
        if piece not in index and unknown is None:
            raise ValueError(f"sentence has {piece!r} (piece {i}), which is not in the model's vocabulary")
    if not pieces:
        raise ValueError("sentence has no tokens")
    return [index.get(p, unknown) for p in pieces]


def _label(token: str) -> str:
    return {"\n": "↵", " ": "␣", "\t": "⇥"}.get(token, token)


def _map_svg(weights: torch.Tensor, labels: List[str], title: str) -> str:
    n = weights.shape[0]
    pad = 8 + CELL * max(1, max(len(l) for l in labels)) // 2
    size = pad + n * CELL
    cells = []
    for i in range(n):
        for j in range(i + 1):
            w = float(weights[i, j])
            cells.append(f'<rect x="{pad + j * CELL}" y="{pad + i * CELL}" width="{CELL}" height="{CELL}" '
                         f'fill="#1f4e99" fill-opacity="{w:.4f}"><title>{html.escape(labels[i])} → '
                         f'{html.escape(labels[j])}: {w:.4f}</title></rect>')
    text = [f'<text x="{pad - 3}" y="{pad + i * CELL + CELL - 3}" text-anchor="end" font-size="10">'
            f'{html.escape(l)}</text>' for i, l in enumerate(labels)]
    text += [f'<text x="{pad + j * CELL + CELL - 3}" y="{pad - 3}" font-size="10" '
             f'transform="rotate(-90 {pad + j * CELL + CELL - 3} {pad - 3})">{html.escape(l)}</text>'
             for j, l in enumerate(labels)]
    return (f'<figure style="display:inline-block;margin:4px"><svg xmlns="http://www.w3.org/2000/svg" '
            f'width="{size}" height="{size}" role="img" aria-label="{html.escape(title)}">'
            f'<rect x="{pad}" y="{pad}" width="{n * CELL}" height="{n * CELL}" fill="none" stroke="#ccc"/>'
            + "".join(cells) + "".join(text) + f'</svg><figcaption style="font:11px sans-serif">'
            f'{html.escape(title)}</figcaption></figure>')


class Shown:
    """What show() returns: .attention ([L, h, n, n]), .tokens, and _repr_html_ for notebooks."""

    def __init__(self, model: PosencModel, tokens: List[int], attention: torch.Tensor, name: str):
        self.model, self.tokens, self.attention, self.name = model, tokens, attention, name

    def _repr_html_(self) -> str:
        cfg = self.model.config
        labels = [_label(self.model.vocab[t]) for t in self.tokens]
        maps = [_map_svg(self.attention[l, h], labels, f"layer {l + 1}, head {h + 1}")
                for l in range(cfg.layers) for h in range(cfg.heads)]
        heading = (f"{html.escape(self.name)}: {cfg.scheme}, {cfg.layers} layers × {cfg.heads} heads, "
                   f"d = {cfg.d}, T = {cfg.context}")
        return (f'<div class="posenc-lab-show" style="font:12px sans-serif"><div>{heading}</div>'
                + "".join(maps) + "</div>")


def show(model_or_path: Union[PosencModel, str], sentence: str, panel: str = "attention",
         rope: str = "none", factor: Optional[float] = None) -> Shown:
    if panel not in PANELS:
        raise ValueError("panel must be " + " or ".join(PANELS))
    model = PosencModel.load(model_or_path) if isinstance(model_or_path, str) else model_or_path
    name = model_or_path if isinstance(model_or_path, str) else "model"
    tokens = tokenize(model, sentence)
    return Shown(model, tokens, model.attention(tokens, rope, factor).cpu(), name)
