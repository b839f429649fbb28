"""The word task's data, as posenc-train --task words makes it (cli/posenc_train.cpp,
model/word_vocabulary.hpp): the vocabulary is the training text's vocab-size − 1 most frequent
tokens that the vector file has (ties by byte order), plus <unk>; wte holds their vectors, <unk>
the mean of the other rows, rounded to the weights file's dtype before the first step; alpha
defaults to 1/(the vectors' component RMS). The twin builds unreduced rows only (wte as wide as
the vectors: d = the vectors' width, or d − dPos for concatenated); PCA-reduced rows are the
native trainer's."""

from __future__ import annotations

from collections import Counter
from typing import List, Tuple

import torch

from .tasks import WordTask
from .tokenizer import tokenize
from .vectors import UNKNOWN_TOKEN, VectorSet, frozen_rows, parse_vectors


def frequent_vector_words(text: bytes, vectors: VectorSet, vocab_size: int) -> List[str]:
    known = set(vectors.words)
    counts = Counter(t for t in tokenize(text) if t in known)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0].encode("utf-8")))
    return [word for word, _ in ranked[:vocab_size - 1]] + [UNKNOWN_TOKEN]


def rounded(rows: torch.Tensor, dtype: str) -> torch.Tensor:
    """rows as the weights file will store them (F16 and BF16: nearest, ties to even)."""
    wide = {"f16": torch.float16, "bf16": torch.bfloat16}.get(dtype)
    return rows if wide is None else rows.to(wide).to(torch.float32)


def prepare_words(text: bytes, held_out: bytes, vectors_data: bytes, vocab_size: int,
                  dtype: str) -> Tuple[WordTask, torch.Tensor, VectorSet]:
    """(task, wte rows [V, dim], the vectors) of the word task."""
    vectors = parse_vectors(vectors_data)
    vocab = frequent_vector_words(text, vectors, vocab_size)
    task = WordTask(vocab, UNKNOWN_TOKEN, text, held_out)
    return task, rounded(frozen_rows(vocab, vectors.words, vectors.rows), dtype), vectors
