"""The core's seeded streams (src/base/splitmix.hpp, src/vectors/embedding.cpp), so the twin starts
from the same weights and draws the same batches as the core for the same seeds.

SplitMix64: state += 0x9e3779b97f4a7c15; z = mix(state). below(n) = ((next() >> 32)·n) >> 32.
gaussian(seed, count, σ): Box–Muller in double over pairs of uniforms in (0, 1], rounded to float32.
"""

from __future__ import annotations

import math

import torch

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform_open_zero(self) -> float:
        """Uniform in (0, 1]."""
        return ((self.next() >> 11) + 1.0) * 2.0 ** -53

    def below(self, n: int) -> int:
        """Uniform in [0, n), 1 ≤ n < 2^32, by multiply-shift."""
        return ((self.next() >> 32) * n) >> 32


def batch_rng(seed: int, index: int) -> SplitMix64:
    """The generator of batch `index` of a task seeded with `seed` (src/model/tasks.cpp)."""
    return SplitMix64(SplitMix64(SplitMix64(seed).next() ^ (index & MASK)).next())


def gaussian(seed: int, count: int, sigma: float) -> torch.Tensor:
    """count float32 draws from N(0, σ²), the core's fill_gaussian bit for bit (same libm)."""
    rng = SplitMix64(seed)
    out = [0.0] * count
    two_pi = 6.283185307179586
    for i in range(0, count, 2):
        radius = sigma * math.sqrt(-2.0 * math.log(rng.uniform_open_zero()))
        angle = two_pi * rng.uniform_open_zero()
        out[i] = radius * math.cos(angle)
        if i + 1 < count:
            out[i + 1] = radius * math.sin(angle)
    return torch.tensor(out, dtype=torch.float64).to(torch.float32)


def tensor_seed(model_seed: int, index: int) -> int:
    """The seed of the tensor at file position `index` (0-based): one stream per tensor."""
    return (model_seed ^ ((GOLDEN * (index + 1)) & MASK)) & MASK
