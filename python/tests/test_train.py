"""python3 -m posenc_lab.train: two gloo ranks train what one process trains on the whole batch,
a resumed run equals an uninterrupted one, a reduced run learns, a diverged step is not applied,
and bad flags are refused by name."""

import math
import os
import subprocess
import sys

import pytest
import torch

from conftest import HERE, ROOT
from posenc_lab import AdamW, AdamWOptions, ModelConfig, PosencModel
from posenc_lab.train import main
from posenc_lab.training import Diverged, Ranks, train_step, trained_tensors
from posenc_lab.weights import load

SMALL = ["--scheme", "rotary", "--task", "copy", "--d", "16", "--layers", "2", "--heads", "2", "--context", "8",
         "--items", "4", "--batch", "6", "--lr", "1e-2", "--log-every", "5", "--eval-batches", "1", "--threads", "1"]
LR = 1e-2
# Two ranks sum each gradient in two parts and then add the parts: a different order of float sums
# than one process, about 1e-7 relative. Through 5 Adam steps that moves a parameter by far less
# than the 1e-3·lr the Catch2 suite allows float against float64 after 4 steps; 1e-3·lr is used.
RANKS_TOL = 1e-3 * LR


def train(tmp_path, name, *extra):
    out = tmp_path / f"{name}.safetensors"
    main(SMALL + ["--out", str(out), *extra])
    return load(str(out)).tensors


def rank_env(**extra) -> dict:
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), **extra}
    if "RANK" not in extra:
        env.pop("WORLD_SIZE", None)
    return env


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    """The weights file of SMALL trained 5 steps on two gloo ranks started by --nproc 2."""
    out = tmp_path_factory.mktemp("ranks") / "two.safetensors"
    done = subprocess.run([sys.executable, "-m", "posenc_lab.train", *SMALL, "--steps", "5", "--nproc", "2",
                           "--out", str(out)], capture_output=True, text=True, env=rank_env(), timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 rank(s)" in done.stdout
    return out


def test_two_gloo_ranks_equal_one_process(tmp_path, two_ranks):
    one = train(tmp_path, "one", "--steps", "5")
    two = load(str(two_ranks)).tensors
    worst = max(float((one[n] - two[n]).abs().max()) for n in one)
    assert worst <= RANKS_TOL
    start = PosencModel(ModelConfig(scheme="rotary", vocab=12, d=16, layers=2, heads=2, context=8))
    moved = max(float((one[n] - t.detach()).abs().max()) for n, t in start.named_tensors().items())
    assert moved > 100 * RANKS_TOL  # the runs trained: agreeing is not agreeing on the start


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path, capsys):
    whole = train(tmp_path, "whole", "--steps", "6")
    checkpoint = tmp_path / "run.ckpt"
    train(tmp_path, "first", "--steps", "3", "--save-every", "3", "--checkpoint", str(checkpoint))
    resumed = train(tmp_path, "resumed", "--steps", "6", "--resume", str(checkpoint))
    for name in whole:
        assert torch.equal(whole[name], resumed[name]), name
    with pytest.raises(SystemExit) as stop:  # other flags than the checkpoint's run: refused by name
        main(SMALL + ["--steps", "6", "--lr", "2e-2", "--resume", str(checkpoint)])
    assert stop.value.code == 2
    assert "--lr" in capsys.readouterr().err


def test_a_reduced_run_learns_the_copy_task(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    main(["--scheme", "rotary", "--task", "copy", "--d", "32", "--layers", "2", "--heads", "2", "--context", "16",
          "--items", "4", "--steps", "60", "--lr", "1e-2", "--log-every", "20", "--threads", "1",
          "--log-json", str(log)])
    import json
    records = [json.loads(line) for line in log.read_text().splitlines()]
    steps = [r for r in records if r["kind"] == "step"]
    assert [r["step"] for r in steps] == [20, 40, 60]
    assert steps[0]["loss"] > steps[-1]["loss"]
    assert records[-1]["kind"] == "final" and records[-1]["heldOut"] < 0.5 * math.log(12)
    assert "NaN" not in log.read_text()
    assert "final held-out loss" in capsys.readouterr().out


def test_a_diverged_step_is_not_applied():
    model = PosencModel(ModelConfig(scheme="nope", vocab=5, d=8, layers=1, heads=2, context=4))
    with torch.no_grad():
        model.h[0].mlp.c_fc.weight[0, 0] = float("inf")
    before = {n: t.detach().clone() for n, t in model.named_tensors().items()}
    optimiser = AdamW(trained_tensors(model), AdamWOptions())
    tokens = torch.randint(0, 5, (2, 5), generator=torch.Generator().manual_seed(1))
    with pytest.raises(Diverged, match="diverged at step 1"):
        train_step(model, optimiser, tokens, None, Ranks())
    assert optimiser.t == 0
    for name, tensor in model.named_tensors().items():
        assert torch.equal(tensor.detach(), before[name]) or name == "h.0.mlp.c_fc.weight", name
    assert all(float(m.abs().max()) == 0 for m in optimiser.m.values())


@pytest.mark.parametrize("flags,named", [
    (["--d", "x"], "--d"),
    (["--scheme", "sinusoid"], "--scheme"),
    (["--lr", "5"], "--lr"),
    (["--heads", "3"], "--heads"),
    (["--context", "4", "--items", "4"], "--context"),
    (["--save-every", "5"], "--checkpoint"),
    (["--bf16"], "--bf16"),
    (["--nproc", "0"], "--nproc"),
    (["--task", "text", "--text", "/nonexistent/book.txt"], "--text"),
])
def test_bad_flags_are_refused_by_name(flags, named, capsys):
    with pytest.raises(SystemExit) as stop:
        main(flags)
    assert stop.value.code == 2
    assert named in capsys.readouterr().err


def test_a_foreign_checkpoint_is_refused(tmp_path, capsys):
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(SystemExit):
        main(SMALL + ["--steps", "2", "--resume", str(bad)])
    assert "--resume" in capsys.readouterr().err


def test_a_file_saved_elsewhere_continues_training(tmp_path, capsys):
    """--init: a weights file (here the twin's; the core's files are the same bytes, test_core_files)
    is the starting point, its config kept; the model flags are refused beside it."""
    start = tmp_path / "start.safetensors"
    config = ModelConfig(scheme="t5", vocab=12, d=16, layers=1, heads=2, context=8, seed=11)
    PosencModel(config).save(str(start))
    out = tmp_path / "continued.safetensors"
    main(["--task", "copy", "--items", "4", "--batch", "4", "--steps", "3", "--log-every", "3", "--eval-batches", "1",
          "--threads", "1", "--init", str(start), "--out", str(out)])
    continued = load(str(out))
    assert continued.config == config.settled()
    assert continued.vocab == ["<pad>", "<sep>"] + [str(s) for s in range(10)]
    before = load(str(start)).tensors
    assert any(not torch.equal(before[n], continued.tensors[n]) for n in before)
    with pytest.raises(SystemExit):
        main(["--init", str(start), "--d", "32"])
    assert "leave out --d" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--init", str(start), "--task", "text", "--text", str(ROOT / "data" / "moby-dick.txt")])
    assert "vocabulary" in capsys.readouterr().err


def test_ranks_started_as_torchrun_starts_them_train_what_nproc_trains(tmp_path, two_ranks):
    """Each process reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT (as under
    torchrun, whose 1.13 build cannot start here): the same bytes as --nproc 2."""
    from posenc_lab.train import free_port
    port = str(free_port())
    command = [sys.executable, "-m", "posenc_lab.train", *SMALL, "--steps", "5"]
    ranks = [subprocess.Popen(command + ["--out", str(tmp_path / f"env-{r}.safetensors")],
                              env=rank_env(RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE="2", LOCAL_WORLD_SIZE="2",
                                           MASTER_ADDR="127.0.0.1", MASTER_PORT=port),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for r in range(2)]
    for process in ranks:
        _, err = process.communicate(timeout=240)
        assert process.returncode == 0, err[-3000:]
    assert not (tmp_path / "env-1.safetensors").exists()  # rank 0 alone writes
    assert (tmp_path / "env-0.safetensors").read_bytes() == two_ranks.read_bytes()


def test_threads_reach_the_system_blas_and_refuse_zero():
    """--threads sets torch's threads and, where torch calls the system's OpenBLAS, OpenBLAS's: its
    own default (one per core) in each rank would oversubscribe the cores the ranks share."""
    import ctypes
    from posenc_lab.threads import blas_name, use_threads
    before = torch.get_num_threads()
    try:
        use_threads(1)
        assert torch.get_num_threads() == 1
        if blas_name().startswith("OpenBLAS"):
            blas = ctypes.CDLL("libblas.so.3")
            blas.openblas_set_num_threads(ctypes.c_int(2))
            use_threads(1)
            assert blas.openblas_get_num_threads() == 1
        with pytest.raises(ValueError, match="threads"):
            use_threads(0)
    finally:
        use_threads(before)
