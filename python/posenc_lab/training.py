"""One training step of the twin, on one process or data-parallel over torch.distributed ranks.

The global batch (B rows) is split into contiguous parts, rank r taking rows
[⌊r·B/W⌋, ⌊(r + 1)·B/W⌋). Each rank backpropagates Σ(its counted losses)/(the global count of
counted targets); one all-reduce (sum) of the flattened gradients then gives every rank the
gradient of the mean loss over the whole batch, whatever the parts' sizes or masks, so W ranks
train the model one process trains on the whole batch, up to the order of float sums. Clipping
and AdamW follow (adamw.py); a step whose loss or gradient norm is not finite is not applied.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Dict, Optional

import torch
import torch.distributed as dist

from .adamw import AdamW, clip_gradients


class Diverged(RuntimeError):
    """The step's loss or gradient norm was not finite: it was not applied."""

    def __init__(self, step: int, loss: float, norm: float):
        why = "a gradient was not finite" if math.isfinite(loss) else f"the loss was {loss}"
        super().__init__(f"diverged at step {step} ({why}): the step was not applied and training stops, "
                         "nothing written; lower --lr or keep --clip above 0")
        self.step, self.loss, self.norm = step, loss, norm


@dataclasses.dataclass
class Ranks:
    """This process's place among `world` data-parallel ranks (world 1: no torch.distributed)."""
    rank: int = 0
    world: int = 1

    def rows(self, B: int) -> slice:
        return slice(self.rank * B // self.world, (self.rank + 1) * B // self.world)

    def sum_(self, tensor: torch.Tensor) -> torch.Tensor:
        if self.world > 1:
            dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
        return tensor


def trained_tensors(model) -> Dict[str, torch.Tensor]:
    """The tensors AdamW updates: every parameter but a frozen wte, in file order."""
    return {name: p for name, p in model.named_tensors().items() if p.requires_grad}


def autocast(device: torch.device, bf16: bool):
    """bf16 autocast on CUDA when asked; a no-op otherwise."""
    if bf16 and device.type == "cuda":
        return torch.autocast(device_type="cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def train_step(model, optimiser: AdamW, tokens: torch.Tensor, mask: Optional[torch.Tensor], ranks: Ranks,
               bf16: bool = False) -> float:
    """One step on the global batch tokens [B, T + 1] (mask [B, T] or None); every rank passes the
    whole batch and uses its own rows. Returns the mean loss before the update; raises Diverged."""
    device = next(model.parameters()).device
    count = tokens.shape[0] * (tokens.shape[1] - 1) if mask is None else int(mask.sum())
    part = ranks.rows(tokens.shape[0])
    mine = tokens[part].to(device)
    mine_mask = None if mask is None else mask[part].to(device)
    trained = trained_tensors(model)
    model.zero_grad(set_to_none=True)
    if mine.shape[0] > 0:
        with autocast(device, bf16):
            total, _ = model.loss_sum(mine, mine_mask)
        (total / max(count, 1)).backward()
        local_loss = total.detach().double()
    else:
        local_loss = torch.zeros((), dtype=torch.float64, device=device)
    grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in trained.values()]
    flat = torch.cat([g.reshape(-1) for g in grads]) if grads else torch.zeros(0, device=device)
    ranks.sum_(flat)
    loss = float(ranks.sum_(local_loss.reshape(1))[0]) / max(count, 1)
    reduced, at = {}, 0
    for (name, p) in trained.items():
        reduced[name] = flat[at:at + p.numel()].view_as(p)
        at += p.numel()
    norm = clip_gradients(reduced, optimiser.options.clip)
    if not (math.isfinite(loss) and math.isfinite(norm)):
        raise Diverged(optimiser.t + 1, loss, norm)
    optimiser.step(reduced)
    return loss
