"""clip_grad_norm_ followed by AdamW, exactly as docs/ARCHITECTURE.md ("Training step") and the
core's src/model/adamw.hpp do them:

  N = ‖g‖₂ over the trained tensors' gradients (accumulated in float64); if clip > 0 and N > clip,
  g ← g·float32(clip/(N + 1e-6)). Then at step t ≥ 1, per trained tensor, in float32:
  m ← β1·m + (1 − β1)·g;  v ← β2·v + (1 − β2)·g²;
  θ ← θ·keep − step_size·(m / (√v / bc2 + eps)), keep = 1 − lr·wd for 2-D tensors (else 1),
  step_size = lr/(1 − β1^t), bc2 = √(1 − β2^t): each scalar formed in double, rounded once to float32.
A frozen wte (frozenEmbedding) is neither updated, decayed nor counted in the norm.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Dict, Optional

import torch

from .config import float32


@dataclasses.dataclass
class AdamWOptions:
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.95
    eps: float = 1e-8
    weightDecay: float = 0.1
    clip: float = 1.0  # 0 turns clipping off

    def __post_init__(self):
        for field in dataclasses.fields(self):  # float32 in the core
            setattr(self, field.name, float32(float(getattr(self, field.name))))

    def validate(self) -> Optional[str]:
        """None, or the core's message naming the option."""
        def within(x, lo, hi):
            return math.isfinite(x) and lo <= x <= hi
        if not within(self.lr, 0.0, 1.0):
            return "lr must be a finite number from 0 to 1"
        if not within(self.beta1, 0.0, 1.0) or self.beta1 == 1.0:
            return "beta1 must be a number from 0 to below 1"
        if not within(self.beta2, 0.0, 1.0) or self.beta2 == 1.0:
            return "beta2 must be a number from 0 to below 1"
        if not within(self.eps, 0.0, 1.0) or self.eps == 0.0:
            return "eps must be a number above 0 and at most 1"
        if not within(self.weightDecay, 0.0, 1e6) or self.lr * self.weightDecay > 1.0:
            return "weightDecay must be a finite number ≥ 0 with lr·weightDecay ≤ 1"
        if not within(self.clip, 0.0, 1e30):
            return "clip must be a finite number ≥ 0 (0 turns clipping off)"
        return None


def clip_gradients(grads: Dict[str, torch.Tensor], clip: float) -> float:
    """Scales grads in place when their global norm exceeds clip; returns the norm before."""
    if not grads:
        return 0.0
    # One device-to-host read: the squares summed per tensor in float64, then across tensors.
    norm = math.sqrt(float(torch.stack([g.double().pow(2).sum() for g in grads.values()]).sum()))
    if clip > 0.0 and norm > clip:
        factor = float32(clip / (norm + 1e-6))
        for g in grads.values():
            g.mul_(factor)
    return norm


class AdamW:
    """The optimiser's state (m, v per trained tensor, step count t) and its update."""

    def __init__(self, params: Dict[str, torch.Tensor], options: AdamWOptions):
        error = options.validate()
        if error:
            raise ValueError(error)
        self.options = options
        self.params = params  # name → parameter (trained ones only)
        self.m = {name: torch.zeros_like(p) for name, p in params.items()}
        self.v = {name: torch.zeros_like(p) for name, p in params.items()}
        self.t = 0

    @torch.no_grad()
    def step(self, grads: Dict[str, torch.Tensor]) -> None:
        """One update with these (already clipped) gradients; t advances first (1-based)."""
        self.t += 1
        o = self.options
        decay = float32(1.0 - o.lr * o.weightDecay)
        b1, b2 = o.beta1, o.beta2
        one_minus_b1, one_minus_b2 = float32(1.0 - b1), float32(1.0 - b2)
        step_size = float32(o.lr / (1.0 - math.pow(b1, self.t)))
        bc2 = float32(math.sqrt(1.0 - math.pow(b2, self.t)))
        for name, p in self.params.items():
            g = grads[name].to(p.dtype)
            m, v = self.m[name], self.v[name]
            # Separate products and sums (no fused multiply-add), each rounded to float32.
            m.copy_(m * b1 + g * one_minus_b1)
            v.copy_(v * b2 + (g * g) * one_minus_b2)
            denom = torch.sqrt(v) / bc2 + o.eps
            keep = decay if p.dim() == 2 else 1.0
            p.copy_(p * keep - (m / denom) * step_size)

    def state(self) -> dict:
        return {"t": self.t, "m": {k: t.detach().cpu() for k, t in self.m.items()},
                "v": {k: t.detach().cpu() for k, t in self.v.items()}}

    @torch.no_grad()
    def load_state(self, state: dict) -> None:
        if set(state["m"]) != set(self.m) or set(state["v"]) != set(self.v):
            raise ValueError("the checkpoint's optimiser state names other tensors than this model's")
        for name in self.m:
            self.m[name].copy_(state["m"][name])
            self.v[name].copy_(state["v"][name])
        self.t = int(state["t"])
