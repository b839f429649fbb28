"""Is the twin's training at two gloo ranks the same computation as at one process, over a full run?

float64 removes float32's order-of-sums noise: a batch's gradient summed as two halves across
ranks differs from one sum over the whole batch by ~1e-16 relative instead of ~1e-7. In float64
(and, with --float32, in float32, the records' own comparison) two measures of one process
against two ranks:
  trajectories  both trained from the same start; their weights' difference at checkpoints. Training
                amplifies any difference, so this grows from the rounding level even for the same
                computation; a defect (rows, scaling, reduction) starts far above that level.
  one step      at every step of the two-rank run rank 0 also takes that step as one process from
                the same state; the largest difference since the last checkpoint. Nothing amplifies
                within one step: the same computation keeps it at the rounding level all run long.
The package's own objects do the work (prepare, train_step, Ranks, AdamW, the seeded batch
stream); the model is converted to the dtype after its seeded float32 initialisation and AdamW
built on it, so m and v are in that dtype too. PosencModel.loss_sum takes the cross-entropy of
float32 logits at both rank counts: a per-row rounding, the same in both runs unless a float64
logit lies within ~1e-16 of a float32 rounding boundary; the training losses are float32 sums.

  PYTHONPATH=python nice -n 19 python3 bench/twin-float64-ranks.py [--steps 2000] [--seed 1] [--float32]

book-large's rotary run (scripts/experiment-tables.mjs) of --seed, one thread per process; held-out
losses on book-large's 64 windows of 8T targets, of the final weights rounded to float32 as a
weights file holds them. Writes --out (bench/records/twin-float64-ranks.json).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import os
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))  # spawned ranks re-run this file: they need it too

from posenc_lab.adamw import AdamW  # noqa: E402
from posenc_lab.cli import options_from_args  # noqa: E402
from posenc_lab.evaluate import text_evaluation, window_starts  # noqa: E402
from posenc_lab.model import PosencModel  # noqa: E402
from posenc_lab.threads import blas_name  # noqa: E402
from posenc_lab.train import free_port, make_task, parse_args, prepare  # noqa: E402
from posenc_lab.training import Ranks, train_step, trained_tensors  # noqa: E402

CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 1500, 2000)
WORLD = 2
WINDOWS = 64  # book-large's held-out windows of 8T targets
CPU = torch.device("cpu")
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def book_large(seed: int, steps: int) -> argparse.Namespace:
    """posenc_lab.train's flags for book-large's rotary run of this seed, one thread per process."""
    return parse_args(["--task", "text", "--text", os.path.join(ROOT, "data", "moby-dick.txt"), "--scheme", "rotary",
                       "--d", "128", "--layers", "4", "--heads", "4", "--context", "64", "--batch", "16",
                       "--steps", str(steps), "--lr", "0.002", "--seed", str(seed), "--data-seed", str(seed),
                       "--threads", "1"])


def train(args, ranks: Ranks, dtype: torch.dtype, checkpoints, alongside: bool = False) -> dict:
    """{step: {"loss": the step's mean training loss, "tensors": every weight after it}} at the
    checkpoints, trained as posenc_lab.train's loop trains, in dtype. alongside: each step is also
    taken by one process from the same state, and "oneStep" holds the largest difference of the
    two steps' weights since the last checkpoint (chaos cannot grow a difference within one step)."""
    task, model, optimiser, _ = prepare(args, CPU)
    model.to(dtype)
    optimiser = AdamW(trained_tensors(model), optimiser.options)  # m, v zeros in dtype
    kept, worst = {}, None
    for step in range(1, args.steps + 1):
        tokens, mask = task.batch(args.batch, model.config.context, args.data_seed, step - 1, False)
        alone = one_process_step(model, optimiser, tokens, mask) if alongside else None
        loss = train_step(model, optimiser, tokens, mask, ranks)
        if alone is not None:
            worst = larger(worst, difference({"loss": loss, "tensors": model.named_tensors()}, alone))
        if step in checkpoints:
            kept[step] = {"loss": loss, "tensors": {n: t.detach().clone() for n, t in model.named_tensors().items()}}
            if worst is not None:
                kept[step]["oneStep"], worst = worst, None
    return kept


def one_process_step(model, optimiser: AdamW, tokens, mask) -> dict:
    """The loss and weights one process's train_step gives from this model's and AdamW's state."""
    alone = copy.deepcopy(model)
    alone_optimiser = AdamW(trained_tensors(alone), optimiser.options)
    alone_optimiser.load_state(optimiser.state())
    loss = train_step(alone, alone_optimiser, tokens, mask, Ranks())
    return {"loss": loss, "tensors": alone.named_tensors()}


def larger(worst, new: dict) -> dict:
    """Field by field, the larger in magnitude of two differences (worst None: new)."""
    if worst is None:
        return new
    return {k: max(worst[k], new[k], key=abs) for k in new}


def rank_main(rank: int, args, dtype: torch.dtype, checkpoints, port: int, path: str) -> None:
    """One of WORLD gloo ranks, placed as train.py's --nproc places them; rank 0 saves to path."""
    os.environ.update({"RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": str(WORLD),
                       "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)})
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=WORLD)
    try:
        kept = train(args, Ranks(rank, WORLD), dtype, checkpoints, alongside=rank == 0)
        if rank == 0:
            torch.save(kept, path)
        dist.barrier()
    finally:
        dist.destroy_process_group()


def two_ranks(args, dtype: torch.dtype, checkpoints) -> dict:
    """train's checkpoints of rank 0 of WORLD spawned ranks, each step also taken alone on rank 0."""
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "rank0.pt")
        torch.multiprocessing.spawn(rank_main, args=(args, dtype, checkpoints, free_port(), path),
                                    nprocs=WORLD, join=True)
        return torch.load(path)


def difference(one: dict, two: dict) -> dict:
    """Max |Δw| and ‖Δw‖₂/‖w‖₂ over every weight (one's as w), and the difference of the losses."""
    a = torch.cat([t.detach().double().reshape(-1) for t in one["tensors"].values()])
    b = torch.cat([two["tensors"][n].detach().double().reshape(-1) for n in one["tensors"]])
    return {"maxAbsWeightDiff": float((a - b).abs().max()), "relL2WeightDiff": float((a - b).norm() / a.norm()),
            "trainLossDiff": two["loss"] - one["loss"]}


def held_out(args, tensors: dict) -> dict:
    """Held-out loss at 1×, 2×, 4×, 8× (plain rotary) of the weights rounded to float32."""
    task = make_task(args)
    config, _ = options_from_args(args, task.vocab_size)
    model = PosencModel(config, task.tokens(), initialise=False)
    model.load_tensors(tensors)  # copy_ into float32 parameters: a float32 weights file's values
    T = config.context
    starts = window_starts(task.train_end, len(task.ids), 8 * T, WINDOWS)
    return text_evaluation(model.eval(), task.ids, starts, T, None, "windows", 0)["heldOut"]


def row(step: int, one: dict, two: dict) -> dict:
    """A checkpoint's record: the trajectories' difference, both losses, the worst one-step difference."""
    return {"step": step, **difference(one, two), "trainLossOneRank": one["loss"], "trainLossTwoRanks": two["loss"],
            "oneStep": two["oneStep"]}


def pair(args, dtype_name: str, checkpoints) -> dict:
    """One process and WORLD ranks in one dtype: their differences at each checkpoint."""
    dtype, seconds, runs = DTYPES[dtype_name], {}, {}
    for name, runner in (("oneRank", lambda: train(args, Ranks(), dtype, checkpoints)),
                         ("twoRanks", lambda: two_ranks(args, dtype, checkpoints))):
        began = time.perf_counter()
        runs[name] = runner()
        seconds[name] = round(time.perf_counter() - began, 1)
        print(f"{dtype_name} {name}: {seconds[name]} s", flush=True)
    rows = [row(s, runs["oneRank"][s], runs["twoRanks"][s]) for s in checkpoints]
    for r in rows:
        print(f"{dtype_name} step {r['step']:5d}  max|Δw| {r['maxAbsWeightDiff']:.3e}"
              f"  rel L2 {r['relL2WeightDiff']:.3e}  loss {r['trainLossOneRank']:.6f} / {r['trainLossTwoRanks']:.6f}"
              f"  one step: max|Δw| {r['oneStep']['maxAbsWeightDiff']:.3e}"
              f" rel L2 {r['oneStep']['relL2WeightDiff']:.3e}", flush=True)
    last = checkpoints[-1]
    evaluated = {name: held_out(args, runs[name][last]["tensors"]) for name in runs}
    print(f"{dtype_name} held-out 8×: one rank {evaluated['oneRank']['8']:.6f}, two ranks "
          f"{evaluated['twoRanks']['8']:.6f}", flush=True)
    return {"wallSeconds": seconds, "checkpoints": rows, "heldOut": evaluated}


def cpu_model() -> str:
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
    return names[0] if names else "unknown"


def parse(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=2000, help="training steps of every run (default 2000)")
    p.add_argument("--seed", type=int, default=1, help="model and data seed (default 1)")
    p.add_argument("--float32", action="store_true", help="also the float32 pair (the records' own comparison)")
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "records", "twin-float64-ranks.json"))
    args = p.parse_args(argv)
    if args.steps < 1:
        p.error(f"--steps must be at least 1, got {args.steps}")
    if args.seed < 1:
        p.error(f"--seed must be at least 1, got {args.seed}")
    return args


def main() -> None:
    opts = parse()
    checkpoints = sorted({s for s in CHECKPOINTS if s <= opts.steps} | {opts.steps})
    args = book_large(opts.seed, opts.steps)
    pairs = {name: pair(args, name, checkpoints) for name in (["float64", "float32"] if opts.float32 else ["float64"])}
    record = {"command": " ".join([os.path.basename(sys.executable), *sys.argv]), "nice": os.nice(0),
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "torch": torch.__version__, "blas": blas_name(), "cpu": cpu_model(), "threadsPerProcess": 1,
              "ranks": WORLD, "config": {"scheme": args.scheme, "d": args.d, "layers": args.layers, "heads": args.heads,
                                         "context": args.context, "batch": args.batch, "lr": args.lr, "steps": args.steps,
                                         "seed": args.seed, "dataSeed": args.data_seed, "text": "data/moby-dick.txt",
                                         "windows": WINDOWS},
              **pairs}
    with open(opts.out, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, allow_nan=False)
        f.write("\n")
    print(f"wrote {opts.out}")


if __name__ == "__main__":
    main()
