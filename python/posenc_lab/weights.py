"""The lab's weights file (docs/ARCHITECTURE.md, "Weights file"): safetensors, read and written
by hand (no safetensors package needed).

Layout written and required:
  bytes [0, 8)       header length N, uint64 little-endian; 2 ≤ N ≤ MAX_HEADER_BYTES
  bytes [8, 8 + N)   UTF-8 JSON object, padded with spaces so 8 + N is a multiple of 8:
                     {"__metadata__": {"posenc": "<config JSON>", "vocab": "<JSON array>"},
                      "<tensor>": {"dtype": "F32", "shape": [rows(, cols)], "data_offsets": [b, e]}, …}
  bytes [8 + N, end) the data section, each tensor row-major little-endian at [b, e); the
                     tensors tile it exactly.
The config JSON is written exactly as the core writes it (key order, digits), so a model saved
here and by the core has the same bytes. Reading accepts F32, F16 and BF16 tensors in any order;
every value is widened exactly to float32. A hostile file (bad header length, bad JSON, unknown
or missing tensors, wrong dtype or shape, offsets out of range, overlapping or leaving gaps) is
refused with a WeightsError whose message starts with "weights file: " and says what is wrong.
"""

from __future__ import annotations

import ctypes
import dataclasses
import json
import sys
from typing import Dict, List, Mapping, Optional, Sequence

import torch

from .config import ModelConfig, PAIRINGS, SCHEMES, SCHEME_MESSAGE_ORDER, WORD_PCAS, MAX_CONFIG_INTEGER
from .config import parameter_specs, validate

MAX_HEADER_BYTES = 100_000_000
DTYPES = {"F32": (torch.float32, 4), "F16": (torch.float16, 2), "BF16": (torch.bfloat16, 2)}
_DTYPE_NAMES = {"f32": "F32", "f16": "F16", "bf16": "BF16"}

if sys.byteorder != "little":  # torch.frombuffer reads the host's byte order
    raise ImportError("posenc_lab.weights needs a little-endian machine")


class WeightsError(ValueError):
    """A weights file or config that cannot be read or written; the message says why."""


@dataclasses.dataclass
class LoadedWeights:
    config: ModelConfig
    tensors: Dict[str, torch.Tensor]  # float32, in file (parameter_specs) order
    vocab: Optional[List[str]]        # None when the file has no __metadata__.vocab
    dtype: str                        # the dtype of the first tensor in the data section
    wte_missing: bool = False         # a frozen word model's file without wte (its rows are 0)


# ---- config JSON --------------------------------------------------------------------------------

def json_string(text: str) -> str:
    """text as a JSON string literal, escaped exactly as the core escapes it."""
    out = ['"']
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif ord(c) < 0x20:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def config_to_json(given: ModelConfig) -> str:
    """The config as the file's __metadata__.posenc, byte for byte the core's string."""
    cfg = given.settled()
    parts = [f'"scheme":"{cfg.scheme}"', f'"vocab":{cfg.vocab}', f'"d":{cfg.d}', f'"layers":{cfg.layers}',
             f'"heads":{cfg.heads}', f'"context":{cfg.context}', f'"dPos":{cfg.dPos}',
             '"base":' + "%.17g" % cfg.base, f'"pairing":"{cfg.pairing}"', '"alpha":' + "%.9g" % cfg.alpha]
    if cfg.positionScale != 1.0:
        parts.append('"positionScale":' + "%.9g" % cfg.positionScale)
    if cfg.wordPca != "centred":
        parts.append(f'"wordPca":"{cfg.wordPca}"')
    parts += [f'"t5Buckets":{cfg.t5Buckets}', f'"t5MaxDistance":{cfg.t5MaxDistance}', f'"seed":{cfg.seed}',
              '"frozenEmbedding":' + ("true" if cfg.frozenEmbedding else "false")]
    return "{" + ",".join(parts) + "}"


def _refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def _unique_object(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f'duplicate key "{key}"')
        seen[key] = value
    return seen


def parse_json(text: str):
    """Strict JSON: no NaN or Infinity literals, no duplicate keys; nesting bounded by recursion."""
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_object)
    except RecursionError:
        raise ValueError("nesting too deep") from None


def _is_uint(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _config_member(key: str, value, fields: dict) -> Optional[str]:
    if key == "scheme":
        if value not in SCHEMES:
            return "scheme must be one of " + ", ".join(SCHEME_MESSAGE_ORDER)
    elif key == "pairing":
        if value not in PAIRINGS:
            return "pairing must be 'interleaved' or 'half'"
    elif key == "wordPca":
        if value not in WORD_PCAS:
            return "wordPca must be 'centred' or 'uncentred'"
    elif key in ("base", "alpha", "positionScale"):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return key + " must be a number"
        value = float(value)
    elif key == "frozenEmbedding":
        if not isinstance(value, bool):
            return "frozenEmbedding must be true or false"
    elif key == "seed":
        if not _is_uint(value) or value >= 1 << 64:
            return "seed must be a non-negative integer below 2^64"
    elif key in ("vocab", "d", "layers", "heads", "context", "dPos", "t5Buckets", "t5MaxDistance"):
        if not _is_uint(value) or value > MAX_CONFIG_INTEGER:
            return key + " must be a non-negative integer below 2^31"
    else:
        return f'config has an unknown key "{key}"'
    fields[key] = value
    return None


def config_from_json(text: str) -> ModelConfig:
    """The config of a __metadata__.posenc string; WeightsError naming the key when it is not valid.
    Required keys: scheme, vocab; the others default to ModelConfig's values."""
    try:
        root = parse_json(text)
    except ValueError as e:
        raise WeightsError(f"config is not valid JSON: {e}") from None
    if not isinstance(root, dict):
        raise WeightsError("config must be a JSON object")
    for required in ("scheme", "vocab"):
        if required not in root:
            raise WeightsError("config has no " + required)
    fields: dict = {}
    for key, value in root.items():
        error = _config_member(key, value, fields)
        if error:
            raise WeightsError(error)
    cfg = ModelConfig(**fields)
    error = validate(cfg)
    if error:
        raise WeightsError(error)
    return cfg.settled()


# ---- writing --------------------------------------------------------------------------------------

def tensor_bytes(values: torch.Tensor) -> bytes:
    """The raw bytes of a CPU tensor (contiguous copy), without numpy."""
    flat = values.detach().to("cpu").contiguous()
    return ctypes.string_at(flat.data_ptr(), flat.numel() * flat.element_size()) if flat.numel() else b""


def write_weights(config: ModelConfig, tensors: Mapping[str, torch.Tensor], vocab: Optional[Sequence[str]] = None,
                  dtype: str = "F32") -> bytes:
    """The file's bytes. tensors: every tensor of parameter_specs(config) by name (any float dtype,
    rounded to float32 first, then to dtype: F32, F16 or BF16, nearest, ties to even)."""
    dtype = _DTYPE_NAMES.get(dtype, dtype)
    if dtype not in DTYPES:
        raise WeightsError("dtype must be F32, F16 or BF16")
    error = validate(config)
    if error:
        raise WeightsError(error)
    specs = parameter_specs(config.settled())
    names = {s.name for s in specs}
    for name in tensors:
        if name not in names:
            raise WeightsError(f"tensors has {name}, which this config's layout does not")
    if vocab is not None:
        if len(vocab) != config.vocab:
            raise WeightsError(f"vocabulary has {len(vocab)} tokens, expected vocab = {config.vocab}")
        for i, token in enumerate(vocab):
            if not isinstance(token, str):
                raise WeightsError(f"vocabulary token {i} is not a string")
            try:
                token.encode("utf-8")
            except UnicodeEncodeError:
                raise WeightsError(f"vocabulary token {i} is not valid UTF-8") from None
    header = '{"__metadata__":{"posenc":' + json_string(config_to_json(config))
    if vocab is not None:
        header += ',"vocab":' + json_string("[" + ",".join(json_string(t) for t in vocab) + "]")
    header += "}"
    width = DTYPES[dtype][1]
    data = []
    offset = 0
    for spec in specs:
        if spec.name not in tensors:
            raise WeightsError(f"tensors has no {spec.name}")
        values = torch.as_tensor(tensors[spec.name])
        if tuple(values.shape) != spec.shape:
            raise WeightsError(f"tensor {spec.name} has shape {list(values.shape)}, expected {list(spec.shape)}")
        wide = values.detach().to("cpu", torch.float32).contiguous()
        data.append(wide.to(DTYPES[dtype][0]))
        shape = ",".join(str(n) for n in spec.shape)
        size = spec.size * width
        header += f',{json_string(spec.name)}:{{"dtype":"{dtype}","shape":[{shape}],' \
                  f'"data_offsets":[{offset},{offset + size}]}}'
        offset += size
    header += "}"
    encoded = header.encode("utf-8")
    encoded += b" " * ((8 - len(encoded) % 8) % 8)
    return len(encoded).to_bytes(8, "little") + encoded + b"".join(tensor_bytes(t) for t in data)


def save(path: str, config: ModelConfig, tensors: Mapping[str, torch.Tensor], vocab=None, dtype="F32") -> None:
    data = write_weights(config, tensors, vocab, dtype)
    with open(path, "wb") as f:
        f.write(data)


# ---- reading --------------------------------------------------------------------------------------

def _fail(message: str):
    raise WeightsError("weights file: " + message)


def _header(data: bytes) -> dict:
    size = len(data)
    if size < 8:
        _fail(f"has {size} bytes, fewer than the 8 of the header length")
    n = int.from_bytes(data[:8], "little")
    if n < 2:
        _fail(f"header length {n} is below 2")
    if n > MAX_HEADER_BYTES:
        _fail(f"header length {n} exceeds {MAX_HEADER_BYTES}")
    if n > size - 8:
        _fail(f"header length {n} exceeds the {size - 8} bytes after it (truncated file?)")
    raw = data[8:8 + n]
    if raw[:1] != b"{":
        _fail("header does not start with '{'")
    try:
        root = parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        _fail(f"header is not valid UTF-8 (byte {e.start})")
    except ValueError as e:
        _fail(f"header: {e}")
    if not isinstance(root, dict):
        _fail("header is not a JSON object")
    return root


def _metadata(root: dict):
    meta = root.get("__metadata__")
    if meta is None:
        _fail("__metadata__ is missing (not a PosEnc Lab weights file?)")
    if not isinstance(meta, dict):
        _fail("__metadata__ is not an object")
    for key, value in meta.items():
        if not isinstance(value, str):
            _fail(f"__metadata__.{key} is not a string")
    if "posenc" not in meta:
        _fail("__metadata__.posenc (the model's config) is missing")
    try:
        config = config_from_json(meta["posenc"])
    except WeightsError as e:
        _fail(f"config: {e}")
    if "vocab" not in meta:
        return config, None
    try:
        tokens = parse_json(meta["vocab"])
    except ValueError as e:
        _fail(f"vocab is not valid JSON: {e}")
    if not isinstance(tokens, list):
        _fail("vocab is not a JSON array")
    if len(tokens) != config.vocab:
        _fail(f"vocab has {len(tokens)} tokens, expected {config.vocab} (the config's vocab)")
    if not all(isinstance(t, str) for t in tokens):
        _fail("vocab holds a value that is not a string")
    return config, tokens


def _placement(name: str, entry, spec, data_size: int):
    if not isinstance(entry, dict):
        _fail(f"tensor {name} is not an object")
    for key in entry:
        if key not in ("dtype", "shape", "data_offsets"):
            _fail(f'tensor {name} has an unknown key "{key}"')
    if any(key not in entry for key in ("dtype", "shape", "data_offsets")):
        _fail(f"tensor {name} needs dtype, shape and data_offsets")
    dtype = entry["dtype"]
    if dtype not in DTYPES:
        shown = dtype if isinstance(dtype, str) else "(not a string)"
        _fail(f"tensor {name} has dtype {shown}; only F32, F16 and BF16 are read")
    shape = entry["shape"]
    if not isinstance(shape, list) or not all(_is_uint(n) for n in shape):
        _fail(f"tensor {name} has a shape that is not a list of integers")
    if tuple(shape) != spec.shape:
        _fail(f"tensor {name} has shape {shape}, expected {list(spec.shape)}")
    offsets = entry["data_offsets"]
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(_is_uint(n) for n in offsets):
        _fail(f"tensor {name} has data_offsets that are not two integers")
    begin, end = offsets
    expected = spec.size * DTYPES[dtype][1]
    if end < begin or end - begin != expected:
        span = "a negative range" if end < begin else f"{end - begin} bytes"
        _fail(f"tensor {name} has data_offsets [{begin}, {end}] spanning {span}, expected {expected}")
    if end > data_size:
        _fail(f"tensor {name} has data_offsets [{begin}, {end}] past the data section's {data_size} bytes "
              "(truncated file?)")
    return begin, end, dtype


def _check_tiling(placements: Dict[str, tuple], data_size: int) -> None:
    covered, last = 0, None
    for name, (begin, end, _) in sorted(placements.items(), key=lambda item: item[1][0]):
        if begin < covered:
            _fail(f"tensors {last} and {name} overlap in the data section")
        if begin > covered:
            _fail(f"the data section has a gap of {begin - covered} bytes before tensor {name}")
        covered, last = end, name
    if covered != data_size:
        _fail(f"the tensors cover {covered} bytes of a {data_size}-byte data section")


def read_weights(data: bytes, allow_missing_wte: bool = False) -> LoadedWeights:
    """The file's config, tensors (float32) and vocabulary; WeightsError when it is not valid.
    allow_missing_wte: a frozen-embedding model with a vocabulary may leave wte.weight out."""
    data = bytes(data)
    root = _header(data)
    config, vocab = _metadata(root)
    specs = {s.name: s for s in parameter_specs(config)}
    n = int.from_bytes(data[:8], "little")
    data_size = len(data) - 8 - n
    placements: Dict[str, tuple] = {}
    for name, entry in root.items():
        if name == "__metadata__":
            continue
        if name not in specs:
            _fail(f"unexpected tensor {name} (not in this config's layout)")
        placements[name] = _placement(name, entry, specs[name], data_size)
    wte_missing = False
    for name in specs:
        if name in placements:
            continue
        if not (allow_missing_wte and name == "wte.weight" and config.frozenEmbedding and vocab is not None):
            _fail(f"tensor {name} is missing")
        wte_missing = True
    if not placements:
        _fail("has no tensors")
    _check_tiling(placements, data_size)
    section = bytearray(data[8 + n:])
    tensors: Dict[str, torch.Tensor] = {}
    for name, spec in specs.items():
        if name not in placements:
            tensors[name] = torch.zeros(spec.shape)
            continue
        begin, end, dtype = placements[name]
        raw = torch.frombuffer(section, dtype=torch.uint8, count=end - begin, offset=begin) if end > begin else \
            torch.zeros(0, dtype=torch.uint8)
        tensors[name] = raw.clone().view(DTYPES[dtype][0]).to(torch.float32).reshape(spec.shape)
    first = min(placements.values(), key=lambda p: p[0])[2]
    return LoadedWeights(config, tensors, vocab, first, wte_missing)


def load(path: str, allow_missing_wte: bool = False) -> LoadedWeights:
    with open(path, "rb") as f:
        return read_weights(f.read(), allow_missing_wte)


def finite_or_raise(tensors: Mapping[str, torch.Tensor]) -> None:
    """WeightsError naming the first tensor with a value that is not finite (the core refuses them)."""
    for name, values in tensors.items():
        if not bool(torch.isfinite(values).all()):
            raise WeightsError(f"weights file: tensor {name} holds a value that is not finite")


__all__ = ["WeightsError", "LoadedWeights", "read_weights", "write_weights", "load", "save", "config_to_json",
           "config_from_json", "json_string", "finite_or_raise", "DTYPES", "MAX_HEADER_BYTES"]
