"""The weights file: the twin's reader and writer on their own (dtypes, the config's digits,
refusals), and hostile files refused by both the twin and the core."""

import json
import math
import struct

import pytest
import torch

from conftest import run_core
from posenc_lab import ModelConfig, PosencModel, WeightsError, read_weights
from posenc_lab.weights import config_from_json, config_to_json

CONFIG = ModelConfig(scheme="t5", vocab=5, d=8, layers=1, heads=2, context=6, seed=7)
VOCAB = ["a", "\n", '"q"', "é", "\t"]


def valid_file() -> bytes:
    return PosencModel(CONFIG, VOCAB).to_bytes()


def split(data: bytes):
    n = int.from_bytes(data[:8], "little")
    return json.loads(data[8:8 + n]), data[8 + n:]


def joined(header, section: bytes, text: str = None) -> bytes:
    raw = (text if text is not None else json.dumps(header)).encode()
    return len(raw).to_bytes(8, "little") + raw + section


def edited(change):
    """A valid file with change(header, section) → (header, section) applied."""
    header, section = split(valid_file())
    header, section = change(header, section)
    return joined(header, section)


def with_tensor(name, **fields):
    def change(header, section):
        header[name] = {**header[name], **fields}
        return header, section
    return change


def with_config(**fields):
    def change(header, section):
        config = json.loads(header["__metadata__"]["posenc"])
        config.update(fields)
        header["__metadata__"]["posenc"] = json.dumps(config)
        return header, section
    return change


def overlap_previous(header, section):
    begin, end = header["h.0.ln_1.weight"]["data_offsets"]
    header["h.0.ln_1.weight"]["data_offsets"] = [begin - 16, end - 16]  # into the tensor before it
    return header, section


def without(name):
    def change(header, section):
        del header[name]
        return header, section
    return change


def header_text(text):
    return lambda: joined(None, b"", text)


HOSTILE = {
    "shorter than the length": (lambda: b"\x01\x02", "fewer than the 8"),
    "header length below 2": (lambda: (1).to_bytes(8, "little") + b"{}", "below 2"),
    "header length huge": (lambda: (10 ** 9).to_bytes(8, "little") + b"{}", "exceeds 100000000"),
    "header past the end": (lambda: valid_file()[:40], "truncated file"),
    "header not an object": (header_text("[1, 2]"), "does not start with '{'"),
    "header bad JSON": (header_text('{"__metadata__": {'), "header"),
    "header duplicate key": (header_text('{"a": 1, "a": 2}'), "duplicate"),
    "header NaN": (header_text('{"__metadata__": NaN}'), "header"),
    "no metadata": (lambda: edited(without("__metadata__")), "__metadata__ is missing"),
    "metadata not strings": (lambda: edited(lambda h, s: ({**h, "__metadata__": {"posenc": 3}}, s)), "not a string"),
    "config not JSON": (lambda: edited(lambda h, s: (h.__setitem__("__metadata__", {"posenc": "{"}) or h, s)),
                        "config is not valid JSON"),
    "config unknown key": (lambda: edited(with_config(colour="red")), 'unknown key "colour"'),
    "config invalid": (lambda: edited(with_config(heads=3)), "heads must divide d"),
    "config float width": (lambda: edited(with_config(d=8.0)), "d must be a non-negative integer"),
    "vocab count": (lambda: edited(lambda h, s: (h["__metadata__"].__setitem__("vocab", '["a"]') or h, s)),
                    "vocab has 1 tokens"),
    "unknown tensor": (lambda: edited(lambda h, s: ({**h, "wpe.weight": h["ln_f.bias"]}, s)), "unexpected tensor"),
    "missing tensor": (lambda: edited(without("ln_f.bias")), "is missing"),
    "wrong dtype": (lambda: edited(with_tensor("ln_f.bias", dtype="I32")), "dtype I32"),
    "wrong shape": (lambda: edited(with_tensor("ln_f.bias", shape=[4, 2])), "expected [8]"),
    "shape of floats": (lambda: edited(with_tensor("ln_f.bias", shape=[8.0])), "not a list of integers"),
    "offsets wrong span": (lambda: edited(lambda h, s: with_tensor(
        "ln_f.bias", data_offsets=[h["ln_f.bias"]["data_offsets"][0], h["ln_f.bias"]["data_offsets"][1] - 4])(h, s)),
        "expected 32"),
    "offsets past the end": (lambda: edited(lambda h, s: (h, s[:-4])), "past the data section"),
    "overlapping tensors": (lambda: edited(overlap_previous), "overlap"),
    "gap in the data": (lambda: edited(lambda h, s: (h, s + b"\0" * 8)), "cover"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_files_are_refused_with_a_clear_message(case):
    make, fragment = HOSTILE[case]
    with pytest.raises(WeightsError) as caught:
        read_weights(make())
    assert str(caught.value).startswith("weights file: ")
    assert fragment in str(caught.value)


def test_the_core_refuses_the_same_files(tmp_path):
    paths = []
    for index, case in enumerate(HOSTILE):
        path = tmp_path / f"hostile-{index}.safetensors"
        path.write_bytes(HOSTILE[case][0]())
        paths.append(str(path))
    good = tmp_path / "good.safetensors"
    good.write_bytes(valid_file())
    out = run_core({"cases": [], "refusals": [{"weights": p} for p in paths + [str(good)]]}, tmp_path / "core")
    refusals = json.loads((out / "refusals.json").read_text())
    for case, message in zip(HOSTILE, refusals):
        assert message is not None and message.startswith("weights file: "), case
    assert refusals[-1] is None  # the valid file loads: the refusals are about the edits


@pytest.mark.parametrize("dtype,bits", [("F32", 32), ("F16", 11), ("BF16", 8)])
def test_dtypes_round_to_nearest(dtype, bits):
    model = PosencModel(CONFIG, VOCAB)
    loaded = read_weights(model.to_bytes(dtype))
    assert loaded.dtype == dtype and loaded.vocab == VOCAB
    for name, tensor in model.named_tensors().items():
        exact = tensor.detach()
        # Within half a unit in the last place of a `bits`-bit significand, or half F16's
        # subnormal spacing 2^-24 below its normal range.
        floor = 2.0 ** -25 if dtype == "F16" else 0.0
        bound = (exact.abs() * 2.0 ** -bits).clamp(min=floor) if bits < 32 else torch.zeros_like(exact)
        assert bool(((loaded.tensors[name] - exact).abs() <= bound).all()), name
    assert read_weights(PosencModel.from_bytes(model.to_bytes(dtype)).to_bytes(dtype)).tensors.keys() == \
        loaded.tensors.keys()


def test_f16_rounds_ties_to_even_and_overflows_to_infinity():
    cfg = ModelConfig(scheme="nope", vocab=2, d=2, layers=1, heads=1, context=2)
    model = PosencModel(cfg)
    values = torch.tensor([[1 + 2 ** -11, 1 + 3 * 2 ** -11], [65520.0, -70000.0]])
    tensors = {**model.named_tensors(), "wte.weight": values}
    from posenc_lab.weights import write_weights
    loaded = read_weights(write_weights(cfg, tensors, None, "F16")).tensors["wte.weight"]
    assert loaded[0].tolist() == [1.0, 1 + 4 * 2 ** -11]
    assert loaded[1].tolist() == [math.inf, -math.inf]


def test_config_json_states_every_derived_number_and_keeps_the_digits():
    text = config_to_json(ModelConfig(scheme="t5", vocab=9, context=32, alpha=0.1))
    assert '"t5Buckets":30,"t5MaxDistance":32' in text  # derived from T = 32 (docs/ARCHITECTURE.md)
    assert '"alpha":0.100000001' in text                 # float32's 9 digits, as the core writes them
    assert "positionScale" not in text and "wordPca" not in text
    again = config_from_json(text)
    assert config_to_json(again) == text
    assert struct.pack("<f", again.alpha) == struct.pack("<f", 0.1)


def test_files_read_any_tensor_order_and_extra_metadata():
    header, section = split(valid_file())
    names = [k for k in header if k != "__metadata__"]
    shuffled = {"__metadata__": {**header["__metadata__"], "format": "pt"}}
    for name in reversed(names):
        shuffled[name] = header[name]
    loaded = read_weights(joined(shuffled, section))
    assert list(loaded.tensors) == names
