"""A model's configuration and parameter layout, as docs/ARCHITECTURE.md ("The trained model")
specifies them and the core's src/model/config.hpp holds them.

The field names are the JS API's and the weights file's (``dPos``, ``positionScale``, …), so a
config round-trips through ``__metadata__.posenc`` unchanged. ``alpha`` and ``positionScale`` are
float32 in the core: they are rounded to float32 here too, so the file states the same digits.

Layout (V vocabulary, d width, L layers, h heads, T context): :func:`parameter_specs` lists the
tensors in file order with their shapes; every weight is ``[out, in]`` (``y = x·Wᵀ + b``).
"""

from __future__ import annotations

import dataclasses
import math
import struct
from typing import List, Optional, Tuple

SCHEMES = ("nope", "additive", "learned", "concatenated", "rotary", "alibi", "t5")
# The core's order of the trainable schemes in its messages (the scheme table's order).
SCHEME_MESSAGE_ORDER = ("additive", "concatenated", "rotary", "learned", "alibi", "nope", "t5")
PAIRINGS = ("interleaved", "half")
WORD_PCAS = ("centred", "uncentred")

# The core's limits (src/model/config.hpp, base/limits.hpp), restated: tests/test_limits.py checks
# them against the built core's modelLimits.
MAX_VOCAB = 65536
MAX_WIDTH = 1024
MAX_LAYERS = 16
MAX_HEADS = 64
MAX_CONTEXT = 4096
MAX_PARAMETERS = 1 << 24
MIN_BASE = 1.0  # exclusive
MAX_BASE = 1e12
MAX_ALPHA = 1e6
MAX_T5_BUCKETS = 256
MAX_T5_DISTANCE = 1_000_000
MAX_CONFIG_INTEGER = (1 << 31) - 1

# Tensor rules in file order: (name, rows rule, cols rule or None, schemes or None = every, per layer).
# Dimension rules: 'd', '3d', '4d', 'V', 'T', 'wte_cols', 't5_buckets', 'h'.
_TENSOR_RULES = (
    ("wte.weight", "V", "wte_cols", None, False),
    ("wpe.weight", "T", "d", ("learned",), False),
    ("t5_bias.weight", "t5_buckets", "h", ("t5",), False),
    ("ln_1.weight", "d", None, None, True),
    ("ln_1.bias", "d", None, None, True),
    ("attn.c_attn.weight", "3d", "d", None, True),
    ("attn.c_attn.bias", "3d", None, None, True),
    ("attn.c_proj.weight", "d", "d", None, True),
    ("attn.c_proj.bias", "d", None, None, True),
    ("ln_2.weight", "d", None, None, True),
    ("ln_2.bias", "d", None, None, True),
    ("mlp.c_fc.weight", "4d", "d", None, True),
    ("mlp.c_fc.bias", "4d", None, None, True),
    ("mlp.c_proj.weight", "d", "4d", None, True),
    ("mlp.c_proj.bias", "d", None, None, True),
    ("ln_f.weight", "d", None, None, False),
    ("ln_f.bias", "d", None, None, False),
    ("lm_head.weight", "V", "d", None, False),
)


def float32(value: float) -> float:
    """value rounded to the nearest float32 (±inf beyond its range), as the core stores it."""
    if not math.isfinite(value) or abs(value) > 3.4028235677973366e38:
        return math.copysign(math.inf, value) if not math.isnan(value) else value
    return struct.unpack("<f", struct.pack("<f", value))[0]


def t5_bucket(relative: int, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """T5's bucket of relative = key − query position (src/encodings/schemes.hpp, in double)."""
    offset = 0
    if bidirectional:
        num_buckets //= 2
        if relative > 0:
            offset = num_buckets
        distance = abs(relative)
    else:
        distance = -relative if relative < 0 else 0
    max_exact = num_buckets // 2
    if distance < max_exact:
        return offset + distance
    scaled = math.log(distance / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    capped = min(scaled, float(num_buckets))
    return offset + min(max_exact + int(capped), num_buckets - 1)


def t5_min_max_distance(buckets: int) -> int:
    """The smallest causal t5MaxDistance beyond the exact buckets (buckets/2)."""
    return buckets // 2 + 1


def t5_buckets_reached(context: int, buckets: int, max_distance: int) -> int:
    return len({t5_bucket(-k, False, buckets, max_distance) for k in range(context)})


def t5_defaults(context: int, given_buckets: int = 0) -> Tuple[int, int]:
    """(buckets, max distance) for a causal model trained at `context` (the core's rule): max
    distance = context (at least buckets/2 + 1); buckets = the largest even count from 32 down to 4
    that the distances 0 … context − 1 all reach, unless given."""
    longest = min(context, MAX_CONTEXT)

    def distance_for(buckets: int) -> int:
        return max(longest, t5_min_max_distance(buckets))

    if given_buckets:
        return given_buckets, distance_for(given_buckets)
    for buckets in range(32, 4, -2):
        if t5_buckets_reached(context, buckets, distance_for(buckets)) == buckets:
            return buckets, distance_for(buckets)
    return 4, distance_for(4)


@dataclasses.dataclass
class ModelConfig:
    scheme: str = "additive"
    vocab: int = 0
    d: int = 64
    layers: int = 2
    heads: int = 4
    context: int = 64
    dPos: int = 0
    base: float = 10000.0
    pairing: str = "interleaved"
    alpha: float = 1.0
    positionScale: float = 1.0
    wordPca: str = "centred"
    t5Buckets: int = 0  # 0: derived from context by settled()
    t5MaxDistance: int = 0
    seed: int = 1
    frozenEmbedding: bool = False

    def __post_init__(self):
        if isinstance(self.alpha, (int, float)) and not isinstance(self.alpha, bool):
            self.alpha = float32(float(self.alpha))
        if isinstance(self.positionScale, (int, float)) and not isinstance(self.positionScale, bool):
            self.positionScale = float32(float(self.positionScale))

    @property
    def head_width(self) -> int:
        return self.d // self.heads

    @property
    def wte_cols(self) -> int:
        return self.d - self.dPos if self.scheme == "concatenated" and self.dPos < self.d else self.d

    def settled(self) -> "ModelConfig":
        """A copy with the derived (0) T5 fields filled in: from t5_defaults for t5, else 32 and 128."""
        out = dataclasses.replace(self)
        if self.scheme != "t5":
            out.t5Buckets = self.t5Buckets or 32
            out.t5MaxDistance = self.t5MaxDistance or 128
            return out
        buckets, distance = t5_defaults(self.context, self.t5Buckets)
        out.t5Buckets = self.t5Buckets or buckets
        out.t5MaxDistance = self.t5MaxDistance or distance
        return out

    def validate(self) -> Optional[str]:
        """None when valid, else the core's message naming the field."""
        return validate(self)


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _range(field: str, lo: int, hi: int) -> str:
    return f"{field} must be an integer from {lo} to {hi}"


def validate(cfg: ModelConfig) -> Optional[str]:
    if cfg.scheme not in SCHEMES:
        return "scheme must be one of " + ", ".join(SCHEME_MESSAGE_ORDER)
    for field, lo, hi in (("vocab", 2, MAX_VOCAB), ("d", 2, MAX_WIDTH), ("layers", 1, MAX_LAYERS),
                          ("heads", 1, MAX_HEADS)):
        value = getattr(cfg, field)
        if not _integer(value) or not lo <= value <= hi:
            return _range(field, lo, hi)
    if cfg.d % cfg.heads:
        return "heads must divide d"
    if (cfg.d // cfg.heads) % 2:
        return "heads must leave an even head width d/heads"
    if not _integer(cfg.context) or not 1 <= cfg.context <= MAX_CONTEXT:
        return _range("context", 1, MAX_CONTEXT)
    if not _integer(cfg.dPos):
        return "dPos must be an integer"
    if cfg.scheme == "concatenated":
        if cfg.dPos < 2 or cfg.dPos > cfg.d - 2 or cfg.dPos % 2:
            return "dPos must be an even integer from 2 to d − 2 for the concatenated scheme"
    elif cfg.dPos != 0:
        return "dPos applies to the concatenated scheme only"
    if not _number(cfg.base) or not (cfg.base > MIN_BASE and cfg.base <= MAX_BASE):
        return "base must be a number above 1 and at most 1e+12"
    if cfg.pairing not in PAIRINGS:
        return "pairing must be 'interleaved' or 'half'"
    if not _number(cfg.alpha) or not math.isfinite(cfg.alpha) or not 0 < cfg.alpha <= MAX_ALPHA:
        return "alpha must be a number above 0 and at most 1e+06"
    if not _number(cfg.positionScale) or not math.isfinite(cfg.positionScale) or not 0 < cfg.positionScale <= MAX_ALPHA:
        return "positionScale must be a number above 0 and at most 1e+06"
    if cfg.positionScale != 1.0 and cfg.scheme not in ("additive", "concatenated"):
        return "positionScale applies to the additive and concatenated schemes only"
    if cfg.wordPca not in WORD_PCAS:
        return "wordPca must be 'centred' or 'uncentred'"
    if cfg.wordPca != "centred" and cfg.scheme != "concatenated":
        return "wordPca applies to the concatenated scheme only"
    if not _integer(cfg.t5Buckets) or not _integer(cfg.t5MaxDistance):
        return "t5Buckets and t5MaxDistance must be integers"
    if cfg.scheme == "t5" and (cfg.t5Buckets or cfg.t5MaxDistance):
        s = cfg.settled()
        if not 4 <= s.t5Buckets <= MAX_T5_BUCKETS or s.t5Buckets % 2:
            return f"t5Buckets must be an even integer from 4 to {MAX_T5_BUCKETS}"
        if not 2 <= s.t5MaxDistance <= MAX_T5_DISTANCE:
            return f"t5MaxDistance must be an integer from 2 to {MAX_T5_DISTANCE}"
        if s.t5MaxDistance < t5_min_max_distance(s.t5Buckets):
            return "t5MaxDistance must exceed the exact buckets (t5Buckets/2 for a causal model)"
    if not _integer(cfg.seed) or not 0 <= cfg.seed < 1 << 64:
        return "seed must be a non-negative integer below 2^64"
    if not isinstance(cfg.frozenEmbedding, bool):
        return "frozenEmbedding must be true or false"
    if parameter_count(cfg) > MAX_PARAMETERS:
        return "the model has more than 2^24 parameters: reduce vocab, d or layers"
    return None


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    name: str
    shape: Tuple[int, ...]
    frozen: bool  # wte.weight of a frozenEmbedding model: not trained, decayed or clipped

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def decayed(self) -> bool:
        """AdamW's decoupled weight decay applies to the 2-D tensors only."""
        return len(self.shape) == 2


def _dim(cfg: ModelConfig, rule: str) -> int:
    if rule == "t5_buckets":
        return cfg.t5Buckets or cfg.settled().t5Buckets
    return {"d": cfg.d, "3d": 3 * cfg.d, "4d": 4 * cfg.d, "V": cfg.vocab, "T": cfg.context,
            "wte_cols": cfg.wte_cols, "h": cfg.heads}[rule]


def parameter_specs(cfg: ModelConfig) -> List[TensorSpec]:
    """The tensors of cfg in file order (per-layer ones as h.<l>.<name>)."""
    specs: List[TensorSpec] = []

    def one(rule, prefix=""):
        name, rows, cols, schemes, _ = rule
        if schemes is not None and cfg.scheme not in schemes:
            return
        shape = (_dim(cfg, rows),) if cols is None else (_dim(cfg, rows), _dim(cfg, cols))
        specs.append(TensorSpec(prefix + name, shape, name == "wte.weight" and cfg.frozenEmbedding))

    model_rows = [r for r in _TENSOR_RULES if not r[4]]
    layer_rows = [r for r in _TENSOR_RULES if r[4]]
    for rule in model_rows[:3]:
        one(rule)
    for layer in range(cfg.layers):
        for rule in layer_rows:
            one(rule, f"h.{layer}.")
    for rule in model_rows[3:]:
        one(rule)
    return specs


def parameter_count(cfg: ModelConfig) -> int:
    return sum(s.size for s in parameter_specs(cfg))
