"""python3 -m posenc_lab.evaluate: the windows protocol gives the results store's numbers (the
core's, computed as scripts/experiments.mjs computes them; for rotary with every RoPE scaling, up to
8T), the sliding protocol scores the same targets with more context, and the records have the
store's shape with engine "torch"."""

import json

import pytest
import torch

from conftest import ROOT, run_core
from posenc_lab import ModelConfig
from posenc_lab.evaluate import main, row_losses, window_starts, window_targets
from posenc_lab.tasks import TextTask
from test_parity import LOSS_TOL, perturbed

T, WINDOWS = 8, 3


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    work = tmp_path_factory.mktemp("evaluate")
    text = (ROOT / "data" / "moby-dick.txt").read_text(encoding="utf-8")[:12000]
    excerpt = work / "excerpt.txt"
    excerpt.write_bytes(text.encode("utf-8"))
    task = TextTask(excerpt.read_bytes())
    cfg = ModelConfig(scheme="alibi", vocab=task.vocab_size, d=16, layers=2, heads=2, context=T, seed=4)
    model = perturbed(cfg, 23).eval()
    model.vocab = task.tokens()
    path = work / "alibi.safetensors"
    model.save(str(path))
    return {"work": work, "excerpt": excerpt, "task": task, "model": model, "path": path}


def test_windows_protocol_gives_the_stores_numbers(book, tmp_path):
    out = run_core({"cases": [], "heldout": [{"weights": str(book["path"]), "textFile": str(book["excerpt"]),
                                              "windows": WINDOWS}]}, tmp_path / "core")
    core = json.loads((out / "heldout-0.json").read_text())
    task = book["task"]
    assert core["starts"] == window_starts(task.train_end, len(task.ids), 8 * T, WINDOWS)
    store = tmp_path / "store.json"
    main([str(book["path"]), "--task", "book", "--text", str(book["excerpt"]), "--windows", str(WINDOWS),
          "--table", "twin-test", "--out", str(store), "--seed", "4", "--steps", "0"])
    [record] = json.loads(store.read_text())["records"]
    for k in ("1", "2", "4", "8"):
        assert abs(record["heldOut"][k] - core["heldOut"][k]) <= LOSS_TOL, k
        assert max(abs(a - b) for a, b in zip(record["byWindow"][k], core["byWindow"][k])) <= LOSS_TOL
    assert max(abs(a - b) for a, b in zip(record["byPosition"]["8"], core["byPosition"]["8"])) <= LOSS_TOL
    assert record["engine"] == "torch" and record["build"]["device"] == "cpu"
    assert record["variant"] == "none" and record["metric"] == "loss" and record["config"]["windows"] == WINDOWS


def test_sliding_rows_score_each_target_once_with_the_context_they_claim(book):
    model, ids = book["model"], book["task"].ids
    start = window_starts(book["task"].train_end, len(ids), 8 * T, WINDOWS)[1]
    k, stride = 2, 4
    L = k * T
    sliding = window_targets(model, ids, start, T, k, "sliding", stride, "none", None)
    assert sliding.shape == (8 * T,)
    # Target t (ids[start + t + 1]) is predicted by the row that starts at a = start + t + 1 − L
    # rounded down to a stride step (the first row for t < L): recompute each one from that row.
    for t in range(8 * T):
        j = 0 if t < L else (t - L) // stride + 1
        row = ids[start + j * stride:start + j * stride + L + 1][None]
        expected = row_losses(model, row, "none", None)[0, t - j * stride]
        assert abs(float(sliding[t] - expected)) <= 1e-6, t
    # stride = L is the windows protocol, and at 8T the two are one row.
    assert torch.equal(window_targets(model, ids, start, T, k, "sliding", L, "none", None),
                       window_targets(model, ids, start, T, k, "windows", 0, "none", None))
    assert torch.equal(window_targets(model, ids, start, T, 8, "sliding", stride, "none", None),
                       window_targets(model, ids, start, T, 8, "windows", 0, "none", None))
    # Different from non-overlapping rows where targets gain context: the comparison can fail.
    windows = window_targets(model, ids, start, T, k, "windows", 0, "none", None)
    assert float((sliding - windows).abs().max()) > 1e-3


def test_sliding_records_and_bad_strides(book, tmp_path, capsys):
    store = tmp_path / "store.json"
    common = [str(book["path"]), "--task", "book", "--text", str(book["excerpt"]), "--windows", "2", "--table", "t",
              "--out", str(store), "--seed", "4", "--steps", "0"]
    main(common + ["--protocol", "sliding", "--stride", "8"])
    main(common)
    records = json.loads(store.read_text())["records"]
    assert [r["config"].get("protocol") for r in records] == ["sliding", None]
    assert records[0]["config"]["stride"] == 8
    with pytest.raises(SystemExit):
        main(common + ["--protocol", "sliding", "--stride", "5"])  # 8T − kT = 56 is not a multiple of 5
    with pytest.raises(SystemExit):
        main(common + ["--protocol", "sliding"])
    assert "--stride" in capsys.readouterr().err


def rotary_file(book, tmp_path, d: int, seed: int, perturbation: int):
    """A perturbed rotary model on the excerpt's vocabulary, saved: its path."""
    task = book["task"]
    cfg = ModelConfig(scheme="rotary", vocab=task.vocab_size, d=d, layers=2, heads=2, context=T, seed=seed)
    model = perturbed(cfg, perturbation).eval()
    model.vocab = task.tokens()
    path = tmp_path / "rotary.safetensors"
    model.save(str(path))
    return path


def test_rotary_records_with_and_without_the_scalings(book, tmp_path):
    path = rotary_file(book, tmp_path, 16, 5, 29)
    common = [str(path), "--task", "book", "--text", str(book["excerpt"]), "--windows", "2", "--table", "t",
              "--seed", "5", "--steps", "0", "--protocol", "sliding", "--stride", "4"]
    main(common + ["--out", str(tmp_path / "all.json")])
    main(common + ["--out", str(tmp_path / "plain.json"), "--no-rope-scalings"])
    every = json.loads((tmp_path / "all.json").read_text())["records"]
    [plain] = json.loads((tmp_path / "plain.json").read_text())["records"]
    assert [r["variant"] for r in every] == ["none", "pi", "ntk", "yarn"]
    # The plain record is the same evaluation either way; only the scaled ones are left out.
    assert plain["variant"] == "none" and plain["heldOut"] == every[0]["heldOut"]
    assert plain["byWindow"] == every[0]["byWindow"]


def test_rotary_scalings_give_the_stores_numbers_at_every_multiple(book, tmp_path):
    """The store's rotary records (every RoPE scaling at factor k, up to 8T) from the twin's evaluator
    and from the core's, on the same weights: a difference in evaluation would show here, at the
    lengths and positions the book tables report."""
    path = rotary_file(book, tmp_path, 32, 6, 31)
    ropes = [None, "pi", "ntk", "yarn"]
    out = run_core({"cases": [], "heldout": [{"weights": str(path), "textFile": str(book["excerpt"]), "windows": WINDOWS,
                                              "rope": rope} for rope in ropes]}, tmp_path / "core")
    store = tmp_path / "store.json"
    main([str(path), "--task", "book", "--text", str(book["excerpt"]), "--windows", str(WINDOWS), "--table", "t",
          "--out", str(store), "--seed", "6", "--steps", "0"])
    records = json.loads(store.read_text())["records"]
    assert [r["variant"] for r in records] == ["none", "pi", "ntk", "yarn"]
    for i, record in enumerate(records):
        core = json.loads((out / f"heldout-{i}.json").read_text())
        for k in ("1", "2", "4", "8"):
            assert max(abs(a - b) for a, b in zip(record["byWindow"][k], core["byWindow"][k])) <= LOSS_TOL, (record["variant"], k)
        assert max(abs(a - b) for a, b in zip(record["byPosition"]["8"], core["byPosition"]["8"])) <= LOSS_TOL
    # Each scaling moves the 8T losses by far more than the tolerance, so the comparison can fail.
    plain = records[0]["byWindow"]["8"]
    for record in records[1:]:
        assert max(abs(a - b) for a, b in zip(record["byWindow"]["8"], plain)) > 100 * LOSS_TOL, record["variant"]
