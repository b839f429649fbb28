"""Training tasks with the core's seeded batch stream (src/model/tasks.hpp, training.hpp), so a
twin run sees the batches posenc-train sees for the same flags.

Batch layout (B rows, T positions): tokens int64 [B, T + 1] (row b feeds [0, T), predicts
[1, T]); mask uint8 [B, T] (1 where the target counts) or None (text: every target counts).

Text (character level): vocabulary = the text's distinct code points, ascending; ids; training
ids [0, train_end), held out the rest, train_end = N − ⌊N·held_out_percent/100⌋. Training batch k:
B windows ids[s … s + T], s = below(train_end − T) from batch_rng(seed, k). Held-out batch k:
window w = (k mod count · (B mod count) + b) mod count starts at train_end + w·T,
count = ⌊(N − train_end − 1)/T⌋.

Copy, reverse, sort (K symbols, n items): 0 = PAD, 1 = SEP, symbol s = s + 2; a row is
x_1 … x_n SEP y_1 … y_n PAD …; x drawn with below(K); the mask is 1 at p = n … 2n − 1.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import torch

from .rng import batch_rng

MAX_BATCH = 1024
MAX_CONTEXT = 4096
MAX_SYMBOLS = 1024
MAX_TEXT_BYTES = 1 << 26
DEFAULT_HELD_OUT_PERCENT = 10
SYNTHETIC_KINDS = ("copy", "reverse", "sort")
PAD, SEP, FIRST_SYMBOL = 0, 1, 2


class TaskError(ValueError):
    """A task or batch that cannot be made; the message names the argument."""


class Corpus:
    """ids (training ids [0, train_end), then held out) and their batches; subclasses set them."""

    is_text = True
    ids: torch.Tensor
    train_end: int

    def heldout_windows(self, T: int) -> int:
        held = len(self.ids) - self.train_end
        return 0 if T == 0 or held == 0 else (held - 1) // T

    def _rows(self, starts: List[int], T: int) -> torch.Tensor:
        offsets = torch.tensor(starts, dtype=torch.long)[:, None] + torch.arange(T + 1)[None, :]
        return self.ids[offsets]

    def batch(self, B: int, T: int, seed: int, index: int, held_out: bool) -> Tuple[torch.Tensor, None]:
        check_shape(B, T)
        if held_out:
            count = self.heldout_windows(T)
            if count == 0:
                held = len(self.ids) - self.train_end
                raise TaskError(f"T must be below {held} for this text: its held-out split has {held} characters")
            windows = [(index % count * (B % count) + b) % count for b in range(B)]
            return self._rows([self.train_end + w * T for w in windows], T), None
        if self.train_end < T + 1:
            raise TaskError(f"T must be below {self.train_end} for this text: its training split has "
                            f"{self.train_end} characters")
        rng = batch_rng(seed, index)
        choices = self.train_end - T
        return self._rows([rng.below(choices) for _ in range(B)], T), None


class TextTask(Corpus):
    """Character-level language modelling on a text (the book: data/moby-dick.txt)."""

    def __init__(self, data: bytes, held_out_percent: int = DEFAULT_HELD_OUT_PERCENT):
        if not data:
            raise TaskError("text is empty")
        if len(data) > MAX_TEXT_BYTES:
            raise TaskError(f"text has more than {MAX_TEXT_BYTES} bytes")
        if not 0 <= held_out_percent <= 50:
            raise TaskError("heldOutPercent must be an integer from 0 to 50")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise TaskError(f"text is not valid UTF-8 (byte {e.start})") from None
        code_points = [ord(c) for c in text]
        self.vocabulary = sorted(set(code_points))
        if len(self.vocabulary) < 2:
            raise TaskError("text must use at least 2 distinct characters")
        index = {cp: i for i, cp in enumerate(self.vocabulary)}
        self.ids = torch.tensor([index[cp] for cp in code_points], dtype=torch.long)
        n = len(code_points)
        self.train_end = n - n * held_out_percent // 100

    @property
    def vocab_size(self) -> int:
        return len(self.vocabulary)

    def tokens(self) -> List[str]:
        return [chr(cp) for cp in self.vocabulary]


class WordTask(Corpus):
    """Word-level text (model/training.hpp, set_words): the ids of `text`'s tokens for training,
    then those of `held_out`, which is exactly the held-out part; a token outside the vocabulary
    reads as its unknown token."""

    def __init__(self, vocab: List[str], unknown: str, text: bytes, held_out: bytes):
        from .tokenizer import tokenize
        if len(text) > MAX_TEXT_BYTES or len(held_out) > MAX_TEXT_BYTES:
            raise TaskError(f"{'text' if len(text) > MAX_TEXT_BYTES else 'heldOutText'} has more than "
                            f"{MAX_TEXT_BYTES} bytes")
        self.vocab = list(vocab)
        index = {t: i for i, t in enumerate(self.vocab)}
        self.unknown_id = index[unknown]
        ids = [index.get(t, self.unknown_id) for t in tokenize(text)]
        tail = [index.get(t, self.unknown_id) for t in tokenize(held_out)]
        if len(ids) < 2:
            raise TaskError("text has fewer than 2 tokens")
        if len(tail) < 2:
            raise TaskError("heldOutText has fewer than 2 tokens")
        self.ids = torch.tensor(ids + tail, dtype=torch.long)
        self.train_end = len(ids)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def tokens(self) -> List[str]:
        return list(self.vocab)


class SyntheticTask:
    """copy, reverse or sort of n items over K symbols (items 0: ⌊T/2⌋ at each length T)."""

    is_text = False

    def __init__(self, kind: str, symbols: int = 10, items: int = 0):
        if kind not in SYNTHETIC_KINDS:
            raise TaskError("kind must be copy, reverse or sort")
        if not 2 <= symbols <= MAX_SYMBOLS:
            raise TaskError(f"symbols must be an integer from 2 to {MAX_SYMBOLS}")
        self.kind, self.symbols, self.items = kind, symbols, items

    @property
    def vocab_size(self) -> int:
        return self.symbols + 2

    def tokens(self) -> List[str]:
        return ["<pad>", "<sep>"] + [str(s) for s in range(self.symbols)]

    def batch(self, B: int, T: int, seed: int, index: int, held_out: bool) -> Tuple[torch.Tensor, torch.Tensor]:
        """held_out changes nothing: held-out rows are fresh rows from another seed."""
        check_shape(B, T)
        n = self.items or T // 2
        if n < 1:
            raise TaskError("items must be at least 1")
        if T < 2 * n:
            raise TaskError(f"T must be at least 2·items = {2 * n} (prompt, separator, answer)")
        rng = batch_rng(seed, index)
        rows = []
        for _ in range(B):
            x = [FIRST_SYMBOL + rng.below(self.symbols) for _ in range(n)]
            answer = x[::-1] if self.kind == "reverse" else sorted(x) if self.kind == "sort" else list(x)
            rows.append(x + [SEP] + answer + [PAD] * (T + 1 - 2 * n - 1))
        mask = torch.zeros(B, T, dtype=torch.uint8)
        mask[:, n:2 * n] = 1
        return torch.tensor(rows, dtype=torch.long), mask


def check_shape(B: int, T: int) -> None:
    if not 1 <= B <= MAX_BATCH:
        raise TaskError(f"B must be an integer from 1 to {MAX_BATCH}")
    if not 2 <= T <= MAX_CONTEXT:
        raise TaskError(f"T must be an integer from 2 to {MAX_CONTEXT}")


def accuracy(logits: torch.Tensor, tokens: torch.Tensor, mask: torch.Tensor) -> Tuple[int, int, int, int]:
    """(right answer tokens, counted tokens, rows right in full, rows with a counted target)."""
    right = (logits.argmax(-1) == tokens[:, 1:]) & mask.bool()
    counted = mask.bool()
    rows = counted.any(1)
    whole = (right.sum(1) == counted.sum(1)) & rows
    return int(right.sum()), int(counted.sum()), int(whole.sum()), int(rows.sum())


@torch.no_grad()
def evaluate(model, task, B: int, T: int, batches: int, seed: int, rope: str = "none",
             factor: Optional[float] = None) -> dict:
    """Held-out batches 0 … batches − 1 at length T: loss (mean of the batches' mean losses) and,
    for synthetic tasks, token and exact accuracy pooled over the batches (NaN where T cannot be
    evaluated: beyond a learned table or the held-out text)."""
    nan = float("nan")
    cfg = model.config
    if (cfg.scheme == "learned" and T > cfg.context) or (task.is_text and task.heldout_windows(T) == 0):
        return {"loss": nan, "tokenAccuracy": nan, "exactAccuracy": nan}
    device = next(model.parameters()).device
    loss, right, counted, whole, rows = 0.0, 0, 0, 0, 0
    for k in range(batches):
        tokens, mask = task.batch(B, T, seed, k, True)
        tokens = tokens.to(device)
        mask = None if mask is None else mask.to(device)
        logits = model(tokens[:, :-1], rope, factor).float()
        losses = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1),
                                                   reduction="none")
        if mask is None:
            loss += float(losses.mean())
            continue
        loss += float((losses * mask.reshape(-1)).sum() / mask.sum())
        a = accuracy(logits, tokens, mask)
        right, counted, whole, rows = right + a[0], counted + a[1], whole + a[2], rows + a[3]
    text = task.is_text
    return {"loss": loss / batches, "tokenAccuracy": nan if text else right / counted,
            "exactAccuracy": nan if text else whole / rows}


__all__ = ["Corpus", "TextTask", "WordTask", "SyntheticTask", "TaskError", "evaluate", "accuracy"]
