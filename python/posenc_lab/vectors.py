"""The lab's packed word vectors (PELVEC01, data/README.md; the core's src/vectors/vectors.hpp),
read to rebuild the frozen wte rows a shipped word model's file leaves out.

Layout (little-endian): "PELVEC01", count u32, dim u32, vocabulary bytes u32, 4 reserved bytes;
the words joined by '\\n' (padded to 4 bytes); count float32 scales; count·dim int8 values (row r
is scale[r]·values[r]); component_rms f32, mean_norm f32.

Rebuilt rows (model/word_vocabulary.cpp, unreduced): token i's vector row, and for <unk> the mean
(in float64) of the rows of the words outside the vocabulary; rounded to F16 when the weights file
stores F16. Only unreduced rows (wte as wide as the vectors) are rebuilt, as the core does.
"""

from __future__ import annotations

import dataclasses
import math
import struct
from typing import List

import torch

UNKNOWN_TOKEN = "<unk>"
MAX_FILE_BYTES = 64 << 20
MAX_WORDS = 400_000
MAX_DIM = 1024
HEADER = 24


class VectorsError(ValueError):
    """A vector file that cannot be read; the message says why."""


@dataclasses.dataclass
class VectorSet:
    words: List[str]        # count, in file order (by frequency)
    rows: torch.Tensor      # float32 [count, dim]
    component_rms: float    # RMS of a component over the original vectors

    def __iter__(self):
        return iter((self.words, self.rows))


def parse_vectors(data: bytes) -> VectorSet:
    """The words and rows of a PELVEC01 file (unpacks as words, rows)."""
    size = len(data)
    if size > MAX_FILE_BYTES:
        raise VectorsError(f"vector file is larger than 64 MiB ({MAX_FILE_BYTES} bytes)")
    if size < HEADER:
        raise VectorsError("vector file is truncated (shorter than its 24-byte header)")
    if data[:8] != b"PELVEC01":
        raise VectorsError("not a PosEnc vector file (magic PELVEC01 missing)")
    count, dim, vocabulary_bytes = struct.unpack_from("<III", data, 8)
    if not 1 <= count <= MAX_WORDS:
        raise VectorsError(f"vector file: word count must be between 1 and {MAX_WORDS}")
    if not 2 <= dim <= MAX_DIM or dim % 2:
        raise VectorsError(f"vector file: dimension must be even and between 2 and {MAX_DIM}")
    padded = (vocabulary_bytes + 3) // 4 * 4
    expected = HEADER + padded + 4 * count + count * dim + 8
    if size != expected:
        raise VectorsError("vector file is truncated" if size < expected else "vector file has trailing bytes")
    try:
        words = data[HEADER:HEADER + vocabulary_bytes].decode("utf-8").split("\n")
    except UnicodeDecodeError:
        raise VectorsError("vector file: the vocabulary is not UTF-8") from None
    if any(not w for w in words):
        raise VectorsError("vector file: empty word in the vocabulary")
    if len(set(words)) != len(words):
        raise VectorsError("vector file: duplicate word in the vocabulary")
    if len(words) != count:
        raise VectorsError("vector file: vocabulary does not hold `count` words")
    at = HEADER + padded
    buffer = bytearray(data[at:at + 4 * count + count * dim])
    scales = torch.frombuffer(buffer, dtype=torch.float32, count=count).clone()
    if not bool(((scales >= 0) & (scales <= 1e6)).all()):
        raise VectorsError("vector file: a scale is not a number from 0 to 1e6")
    values = torch.frombuffer(buffer, dtype=torch.int8, count=count * dim, offset=4 * count).clone()
    component_rms, mean_norm = struct.unpack_from("<ff", data, expected - 8)
    if not (0 < component_rms <= 1e6) or not math.isfinite(mean_norm):
        raise VectorsError("vector file: component_rms must be positive and at most 1e6, and mean_norm finite")
    return VectorSet(words, values.reshape(count, dim).to(torch.float32) * scales[:, None], component_rms)


def frozen_rows(vocab: List[str], words: List[str], rows: torch.Tensor) -> torch.Tensor:
    """The unreduced wte [V, dim] of a word vocabulary (one entry UNKNOWN_TOKEN)."""
    index = {w: i for i, w in enumerate(words)}
    missing = [t for t in vocab if t != UNKNOWN_TOKEN and t not in index]
    if missing:
        raise VectorsError(f'word vectors: no row for the model\'s word "{missing[0]}" '
                           "(not the vectors it was trained on)")
    if UNKNOWN_TOKEN not in vocab:
        raise VectorsError(f"the model's vocabulary has no unknown token {UNKNOWN_TOKEN}")
    used = torch.zeros(len(words), dtype=torch.bool)
    out = torch.zeros(len(vocab), rows.shape[1])
    for i, token in enumerate(vocab):
        if token != UNKNOWN_TOKEN:
            used[index[token]] = True
            out[i] = rows[index[token]]
    others = rows[~used]
    mean = others.double().sum(0) / others.shape[0] if others.shape[0] else torch.zeros(rows.shape[1], dtype=torch.float64)
    out[vocab.index(UNKNOWN_TOKEN)] = mean.to(torch.float32)
    return out
