"""The word task's data, as posenc-train --task words makes it (cli/posenc_train.cpp,
model/word_vocabulary.hpp): the vocabulary is the training text's vocab-size − 1 most frequent
tokens that the vector file has (ties by byte order), plus <unk>; wte holds their vectors, <unk>
the mean of the other rows, rounded to the weights file's dtype before the first step; alpha
defaults to 1/(the vectors' component RMS). A concatenated model whose word part d − dPos is
narrower than the vectors gets each row's first d − dPos principal coordinates over the
vocabulary's word rows (model/word_vocabulary.cpp, embedding_rows; posenc_lab.pca), centred or
uncentred as its wordPca says, rounded after the reduction."""

from __future__ import annotations

from collections import Counter
from typing import List, Tuple

import torch

from .tasks import WordTask
from .tokenizer import tokenize
from .pca import principal_components
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


def word_rows(vocab: List[str], vectors: VectorSet, cols: int, word_pca: str = "centred") -> torch.Tensor:
    """wte [V, cols] before rounding: the unreduced rows when cols is the vectors' width, else
    their first cols principal coordinates over the vocabulary's word rows (not <unk>'s)."""
    full = frozen_rows(vocab, vectors.words, vectors.rows)
    dim = full.shape[1]
    if not 1 <= cols <= dim:
        raise ValueError(f"cols must be from 1 to the vectors' width {dim}, got {cols}")
    if cols == dim:
        return full
    words = full[[i for i, token in enumerate(vocab) if token != UNKNOWN_TOKEN]]
    return principal_components(words, centred=word_pca == "centred").project(full, cols)
