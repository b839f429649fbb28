"""The lab's trained model as a torch.nn.Module, following docs/ARCHITECTURE.md ("The trained
model") to the letter, with the parameter names and shapes of the weights file.

Shapes (B rows, n positions, V vocabulary, d width, L layers, h heads, d_h = d/h):
  tokens     int64 [B, n]           (n ≤ context for learned; any n for the other schemes)
  logits     float [B, n, V]
  attention  float [L, B, h, n, n]  softmax weights, row = query i, column = key j, 0 for j > i
  batch      int64 [B, T + 1] with mask [B, T] (1 where the target tokens[b][p + 1] counts)

Evaluation beyond the training length: rope = 'pi' | 'ntk' | 'yarn' (rotary models), factor s;
factor None means s = max(1, n/context) for each evaluated length n (the core's rule).
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import rng, weights
from .config import ModelConfig, parameter_specs, validate

ROPE_SCALINGS = ("none", "pi", "ntk", "yarn")
MAX_CONTEXT_LENGTH = 1048576.0  # the cap on a RoPE factor s = L'/L (src/encodings/schemes.hpp)
YARN_ALPHA, YARN_BETA = 1.0, 32.0  # YaRN's ramp, the core's defaults
INIT_SIGMA = 0.02


# ---- position tables (float64 math, one rounding to float32, as the core's exact phases) ----------

def frequency(i: int, width: int, base: float) -> float:
    return math.pow(base, -2.0 * i / width)


def sin_cos_table(omega: Sequence[float], n: int) -> torch.Tensor:
    """[n, 2·pairs]: row p = [sin(p·ω_0), cos(p·ω_0), sin(p·ω_1), …], float64."""
    positions = torch.arange(n, dtype=torch.float64)[:, None]
    angles = positions * torch.tensor(list(omega), dtype=torch.float64)[None, :]
    return torch.stack([torch.sin(angles), torch.cos(angles)], dim=-1).reshape(n, -1)


def rope_factor(rope: str, factor: Optional[float], context: int, n: int) -> float:
    """s for a pass over n positions: 1 without a scaling; max(1, n/context) when factor is None."""
    if rope == "none":
        return 1.0
    if factor is None:
        return max(1.0, n / context)
    return float(factor)


def rope_frequencies(dh: int, base: float, rope: str, trained: float, evaluated: float) -> List[float]:
    """ω_i per pair of a head of width dh under a RoPE scaling (src/encodings/schemes.hpp)."""
    pairs = dh // 2
    s = max(1.0, evaluated / trained)
    if rope == "ntk":
        scaled = base * math.pow(s, dh / (dh - 2)) if dh > 2 else base
        return [frequency(i, dh, scaled) for i in range(pairs)]
    out = []
    for i in range(pairs):
        w = frequency(i, dh, base)
        if rope == "pi":
            w = w / s
        elif rope == "yarn":
            r = trained * w / 6.283185307179586
            g = 0.0 if r < YARN_ALPHA else 1.0 if r > YARN_BETA else (r - YARN_ALPHA) / (YARN_BETA - YARN_ALPHA)
            interpolated = w / s
            w = interpolated + g * (w - interpolated)
        out.append(w)
    return out


def yarn_qk_factor(s: float) -> float:
    return 0.1 * math.log(s) + 1.0 if s > 1.0 else 1.0


def alibi_slopes(h: int) -> List[float]:
    """2^(−8k/h) for h a power of two; otherwise the paper's rule (every other slope of 2p heads)."""
    p = 1
    while p * 2 <= h:
        p *= 2
    slopes = [math.pow(2.0, -8.0 * k / p) for k in range(1, p + 1)]
    slopes += [math.pow(2.0, -8.0 * (2 * j + 1) / (2 * p)) for j in range(h - p)]
    return slopes


def check_eval(cfg: ModelConfig, rope: str, factor: Optional[float]) -> None:
    if rope not in ROPE_SCALINGS:
        raise ValueError("ropeScaling.type must be one of " + ", ".join(ROPE_SCALINGS))
    if rope != "none" and cfg.scheme != "rotary":
        raise ValueError("ropeScaling applies to rotary models only")
    if factor is not None and (not math.isfinite(factor) or not 1.0 <= factor <= MAX_CONTEXT_LENGTH):
        raise ValueError("ropeScaling.factor must be a number from 1 to 1048576")


# ---- the module --------------------------------------------------------------------------------

class Attention(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)


class MLP(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.c_fc = nn.Linear(d, 4 * d)
        self.c_proj = nn.Linear(4 * d, d)


class Block(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d, eps=1e-5)
        self.attn = Attention(d)
        self.ln_2 = nn.LayerNorm(d, eps=1e-5)
        self.mlp = MLP(d)


class PosencModel(nn.Module):
    """A model of the lab: `PosencModel(config)` starts from the core's seeded initialisation, so
    the same config and seed give the same weights as the core (libm aside)."""

    def __init__(self, config: ModelConfig, vocab: Optional[List[str]] = None, initialise: bool = True):
        super().__init__()
        error = validate(config)
        if error:
            raise ValueError(error)
        cfg = config.settled()
        self.config = cfg
        self.vocab = vocab
        d = cfg.d
        self.wte = nn.Embedding(cfg.vocab, cfg.wte_cols)
        if cfg.scheme == "learned":
            self.wpe = nn.Embedding(cfg.context, d)
        if cfg.scheme == "t5":
            self.t5_bias = nn.Embedding(cfg.t5Buckets, cfg.heads)
        self.h = nn.ModuleList([Block(d) for _ in range(cfg.layers)])
        self.ln_f = nn.LayerNorm(d, eps=1e-5)
        self.lm_head = nn.Linear(d, cfg.vocab, bias=False)
        self.wte.weight.requires_grad_(not cfg.frozenEmbedding)
        self._tables: Dict[tuple, torch.Tensor] = {}
        if initialise:
            self.initialise()

    # -- parameters --------------------------------------------------------------------------------

    def named_tensors(self) -> Dict[str, torch.Tensor]:
        """Every parameter by its file name, in file order."""
        params = dict(self.named_parameters())
        return {s.name: params[s.name] for s in parameter_specs(self.config)}

    @torch.no_grad()
    def initialise(self) -> None:
        """The core's seeded initialisation: N(0, 0.02), N(0, 0.02/√(2L)) for the residual
        projections, biases and t5_bias 0, LayerNorm weights 1; one stream per tensor."""
        residual = INIT_SIGMA / math.sqrt(2.0 * self.config.layers)
        for index, (name, tensor) in enumerate(self.named_tensors().items()):
            if name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
                tensor.fill_(1.0)
            elif name.endswith(".bias") or name == "t5_bias.weight":
                tensor.zero_()
            else:
                sigma = residual if name.endswith("c_proj.weight") else INIT_SIGMA
                seed = rng.tensor_seed(self.config.seed, index)
                tensor.copy_(rng.gaussian(seed, tensor.numel(), sigma).reshape(tensor.shape))

    @torch.no_grad()
    def load_tensors(self, tensors: Dict[str, torch.Tensor]) -> None:
        """Copies every tensor in (names and shapes as parameter_specs); refuses non-finite values."""
        own = self.named_tensors()
        if set(tensors) != set(own):
            missing = sorted(set(own) - set(tensors)) or sorted(set(tensors) - set(own))
            raise ValueError(f"tensors must be exactly this model's; differs at {missing[0]}")
        weights.finite_or_raise(tensors)
        for name, tensor in own.items():
            if tuple(tensors[name].shape) != tuple(tensor.shape):
                raise ValueError(f"tensor {name} has shape {list(tensors[name].shape)}, expected {list(tensor.shape)}")
            tensor.copy_(tensors[name])

    @classmethod
    def from_bytes(cls, data: bytes, vectors: Optional[bytes] = None) -> "PosencModel":
        """The model of a weights file. vectors: the bytes of the word-vector file a frozen word
        model was trained on, for a file that leaves its wte rows out (the shipped models)."""
        loaded = weights.read_weights(data, allow_missing_wte=vectors is not None)
        if loaded.wte_missing:
            from .vectors import frozen_rows, parse_vectors
            words, rows = parse_vectors(vectors)
            if rows.shape[1] != loaded.tensors["wte.weight"].shape[1]:
                raise weights.WeightsError("weights file: tensor wte.weight is missing (only unreduced rows are "
                                           "rebuilt from word vectors)")
            wte = frozen_rows(loaded.vocab, words, rows)
            loaded.tensors["wte.weight"] = wte.half().float() if loaded.dtype == "F16" else wte
        model = cls(loaded.config, loaded.vocab, initialise=False)
        model.load_tensors(loaded.tensors)
        return model

    @classmethod
    def load(cls, path: str, vectors: Optional[str] = None) -> "PosencModel":
        """from_bytes on a file; vectors: the path of the word-vector file (see from_bytes)."""
        with open(path, "rb") as f:
            data = f.read()
        if vectors is None:
            return cls.from_bytes(data)
        with open(vectors, "rb") as f:
            return cls.from_bytes(data, f.read())

    def to_bytes(self, dtype: str = "F32") -> bytes:
        return weights.write_weights(self.config, self.named_tensors(), self.vocab, dtype)

    def save(self, path: str, dtype: str = "F32") -> None:
        with open(path, "wb") as f:
            f.write(self.to_bytes(dtype))

    # -- tables ------------------------------------------------------------------------------------

    def _table(self, key: tuple, make) -> torch.Tensor:
        device = self.ln_f.weight.device
        full = (device,) + key
        if full not in self._tables:
            self._tables[full] = make().to(device)
        return self._tables[full]

    def _input_table(self, n: int) -> torch.Tensor:
        cfg = self.config
        width = cfg.d if cfg.scheme == "additive" else cfg.dPos

        def make():
            table = sin_cos_table([frequency(i, width, cfg.base) for i in range(width // 2)], n).to(torch.float32)
            return table * cfg.positionScale if cfg.positionScale != 1.0 else table

        return self._table(("input", n), make)

    def _rope_table(self, n: int, rope: str, s: float) -> Tuple[torch.Tensor, torch.Tensor]:
        cfg = self.config

        def make():
            omega = rope_frequencies(cfg.head_width, cfg.base, rope, float(cfg.context), float(cfg.context) * s)
            return sin_cos_table(omega, n).to(torch.float32)

        table = self._table(("rope", n, rope, s), make)
        return table[:, 0::2], table[:, 1::2]  # sin, cos: [n, d_h/2]

    def _bias(self, n: int) -> Optional[torch.Tensor]:
        """[h, n, n] additive logit bias for ALiBi and T5 (lower triangle; the mask does the rest)."""
        cfg = self.config
        distance = torch.arange(n)[:, None] - torch.arange(n)[None, :]
        if cfg.scheme == "alibi":
            def make():
                slopes = torch.tensor(alibi_slopes(cfg.heads), dtype=torch.float64)
                return (-slopes[:, None, None] * distance.clamp(min=0).to(torch.float64)).to(torch.float32)
            return self._table(("alibi", n), make)
        if cfg.scheme == "t5":
            def make():
                from .config import t5_bucket
                per_distance = torch.tensor([t5_bucket(-k, False, cfg.t5Buckets, cfg.t5MaxDistance) for k in range(n)])
                return per_distance[distance.clamp(min=0)]
            buckets = self._table(("t5", n), make)
            return self.t5_bias.weight[buckets].permute(2, 0, 1)
        return None

    # -- forward -----------------------------------------------------------------------------------

    def embed(self, tokens: torch.Tensor) -> torch.Tensor:
        cfg = self.config
        n = tokens.shape[1]
        x = self.wte(tokens) * cfg.alpha
        if cfg.scheme == "additive":
            x = x + self._input_table(n)
        elif cfg.scheme == "learned":
            if n > cfg.context:
                raise ValueError(f"n must be at most context = {cfg.context} for a learned table")
            x = x + self.wpe.weight[:n]
        elif cfg.scheme == "concatenated":
            x = torch.cat([x, self._input_table(n).expand(tokens.shape[0], n, cfg.dPos)], dim=-1)
        return x

    def _rotate(self, x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor) -> torch.Tensor:
        """x [B, h, n, d_h] rotated pairwise: (a, b) → (a·cos − b·sin, a·sin + b·cos)."""
        half = x.shape[-1] // 2
        if self.config.pairing == "interleaved":
            a, b = x[..., 0::2], x[..., 1::2]
            return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
        a, b = x[..., :half], x[..., half:]
        return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)

    def _attention(self, block: Block, u: torch.Tensor, rope: str, s: float, keep: Optional[list]) -> torch.Tensor:
        cfg = self.config
        B, n, d = u.shape
        h, dh = cfg.heads, cfg.head_width
        q, k, v = block.attn.c_attn(u).split(d, dim=-1)
        q, k, v = (t.reshape(B, n, h, dh).transpose(1, 2) for t in (q, k, v))
        scale = 1.0 / math.sqrt(dh)
        if cfg.scheme == "rotary":
            sin, cos = self._rope_table(n, rope, s)
            q, k = self._rotate(q, sin, cos), self._rotate(k, sin, cos)
            if rope == "yarn":
                scale *= yarn_qk_factor(s) ** 2
        scores = (q @ k.transpose(-1, -2)) * scale
        bias = self._bias(n)
        if bias is not None:
            scores = scores + bias
        future = self._table(("future", n), lambda: torch.ones(n, n, dtype=torch.bool).triu(1))
        probs = F.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        if keep is not None:
            keep.append(probs.detach())
        out = (probs @ v).transpose(1, 2).reshape(B, n, d)
        return block.attn.c_proj(out)

    def forward(self, tokens: torch.Tensor, rope: str = "none", factor: Optional[float] = None,
                attention: Optional[list] = None, blocks_only: bool = False) -> torch.Tensor:
        """logits [B, n, V] for tokens [B, n]; `attention` (a list) receives each layer's weights."""
        check_eval(self.config, rope, factor)
        s = rope_factor(rope, factor, self.config.context, tokens.shape[1])
        x = self.embed(tokens)
        for block in self.h:
            a = x + self._attention(block, block.ln_1(x), rope, s, attention)
            x = a + block.mlp.c_proj(F.gelu(block.mlp.c_fc(block.ln_2(a)), approximate="tanh"))
        if blocks_only:
            return x
        return self.lm_head(self.ln_f(x))

    # -- the JS contract's operations --------------------------------------------------------------

    def loss_sum(self, batch: torch.Tensor, mask: Optional[torch.Tensor] = None, rope: str = "none",
                 factor: Optional[float] = None) -> Tuple[torch.Tensor, int]:
        """(Σ cross-entropy over the counted targets, their count) for batch [B, T + 1]."""
        logits = self(batch[:, :-1], rope, factor)
        targets = batch[:, 1:]
        losses = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                 reduction="none")
        if mask is None:
            return losses.sum(), targets.numel()
        keep = mask.reshape(-1).to(losses.dtype)
        return (losses * keep).sum(), int(mask.sum())

    def loss(self, batch: torch.Tensor, mask: Optional[torch.Tensor] = None, rope: str = "none",
             factor: Optional[float] = None) -> torch.Tensor:
        """The mean next-token cross-entropy over the counted targets."""
        total, count = self.loss_sum(batch, mask, rope, factor)
        return total / max(count, 1)

    @torch.no_grad()
    def attention(self, tokens: Union[Sequence[int], torch.Tensor], rope: str = "none",
                  factor: Optional[float] = None) -> torch.Tensor:
        """Every layer's and head's weights on one sequence: [L, h, n, n]."""
        keep: list = []
        self(self._one_row(tokens), rope, factor, attention=keep, blocks_only=True)
        return torch.stack([p[0] for p in keep])

    @torch.no_grad()
    def logits(self, tokens: Union[Sequence[int], torch.Tensor], rope: str = "none",
               factor: Optional[float] = None) -> torch.Tensor:
        """Next-token logits at every position of one sequence: [n, V]."""
        return self(self._one_row(tokens), rope, factor)[0]

    def _one_row(self, tokens) -> torch.Tensor:
        row = torch.as_tensor(tokens, dtype=torch.long, device=self.ln_f.weight.device).reshape(1, -1)
        if row.numel() and (int(row.min()) < 0 or int(row.max()) >= self.config.vocab):
            raise ValueError(f"tokens must be ids from 0 to {self.config.vocab - 1}")
        return row
