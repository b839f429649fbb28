"""python3 -m posenc_lab.evaluate: the held-out protocol of docs/EXPERIMENTS.md on weights files,
written as records of the results store (data/experiments/<table>.json) with engine "torch".

  python3 -m posenc_lab.evaluate --table book-large-torch --task book --seed 1 --steps 2000 \\
      --batch 16 --lr 2e-3 model-rotary-seed1.safetensors [--protocol sliding --stride 16]

Protocols (text; T the model's context, multiples k = 1, 2, 4, 8):
  windows  `windows` windows of 8T held-out targets spread evenly over the held-out part
           (start w = from + ⌊w·room/(windows − 1)⌋, room = to − from − 8T − 1), each cut into 8/k
           rows of kT: the same targets at every length, scored with no context carried over a row
           boundary (scripts/experiments.mjs). byPosition: the mean loss at each of the 8T positions.
  sliding  the same targets, each predicted by a row of kT tokens that advances by `stride`: the
           first row of a window scores all its kT targets, each later row only its last `stride`
           (so every target after the first row has at least kT − stride tokens of context;
           ALiBi's appendix B). stride = kT is the windows protocol; 8T − kT must be a multiple.
Rotary models also get one record per RoPE scaling (pi, ntk, yarn) with factor k past 1×, unless
--no-rope-scalings.
Copy/reverse/sort: answer accuracy over `windows` batches of `unit-rows` fresh examples, batch w
seeded w + 1 (the scaling's factor from the length).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Dict, List, Optional

import torch
import torch.nn.functional as F

from .model import PosencModel
from .tasks import SYNTHETIC_KINDS, SyntheticTask, TextTask, evaluate
from .threads import blas_name

MULTIPLES = (1, 2, 4, 8)
PLAIN = "none"
ROPE_SCALINGS = ("pi", "ntk", "yarn")
ROWS_PER_PASS = 256  # rows per forward pass: bounds memory, not results


def fail(message: str):
    print(f"posenc_lab.evaluate: {message}", file=sys.stderr)
    raise SystemExit(2)


def window_starts(begin: int, end: int, span: int, count: int) -> Optional[List[int]]:
    """Starts of `count` windows of span + 1 ids spread evenly over ids[begin, end) (web/train/evaluate.js)."""
    room = end - begin - span - 1
    if room < 0:
        return None
    return [begin + (w * room) // max(1, count - 1) for w in range(count)]


@torch.no_grad()
def row_losses(model: PosencModel, rows: torch.Tensor, rope: str, factor: Optional[float]) -> torch.Tensor:
    """−ln p(row[p + 1] | row[0 … p]) for rows [R, L + 1]: [R, L], float64."""
    device = next(model.parameters()).device
    out = []
    for chunk in rows.split(ROWS_PER_PASS):
        chunk = chunk.to(device)
        logits = model(chunk[:, :-1], rope, factor).float()
        losses = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), chunk[:, 1:].reshape(-1), reduction="none")
        out.append(losses.reshape(chunk.shape[0], -1).double().cpu())
    return torch.cat(out)


def window_targets(model, ids: torch.Tensor, start: int, T: int, k: int, protocol: str, stride: int,
                   rope: str, factor: Optional[float]) -> torch.Tensor:
    """The losses of the 8T targets ids[start + 1 … start + 8T] at length kT: [8T]."""
    span, L = 8 * T, k * T
    if protocol == "windows" or L == span:
        rows = torch.stack([ids[start + b * L:start + b * L + L + 1] for b in range(span // L)])
        return row_losses(model, rows, rope, factor).reshape(-1)
    count = 1 + (span - L) // stride
    rows = torch.stack([ids[start + j * stride:start + j * stride + L + 1] for j in range(count)])
    losses = row_losses(model, rows, rope, factor)
    return torch.cat([losses[0], losses[1:, L - stride:].reshape(-1)])


def text_evaluation(model, ids: torch.Tensor, starts: List[int], T: int, rope: Optional[str], protocol: str,
                    stride: int) -> dict:
    held_out, by_window, by_position = {}, {}, None
    for k in MULTIPLES:
        L = k * T
        if model.config.scheme == "learned" and L > T:
            continue
        kind, factor = (rope, float(k)) if rope and L > T else ("none", None)
        per_target = [window_targets(model, ids, s, T, k, protocol, stride, kind, factor) for s in starts]
        by_window[str(k)] = [float(t.mean()) for t in per_target]
        held_out[str(k)] = sum(by_window[str(k)]) / len(starts)
        if k == 8:
            by_position = {"8": (torch.stack(per_target).mean(0)).tolist()}
    return {"heldOut": held_out, "byWindow": by_window, "byPosition": by_position}


def synthetic_evaluation(model, task, T: int, windows: int, unit_rows: int, rope: Optional[str]) -> dict:
    held_out, by_window = {}, {}
    for k in MULTIPLES:
        if model.config.scheme == "learned" and k > 1:
            continue
        kind = rope if rope and k > 1 else "none"
        by_window[str(k)] = [evaluate(model, task, unit_rows, k * T, 1, w + 1, kind)["tokenAccuracy"]
                             for w in range(windows)]
        held_out[str(k)] = sum(by_window[str(k)]) / windows
    return {"heldOut": held_out, "byWindow": by_window, "byPosition": None}


def records_for(path: str, args, device: torch.device) -> List[dict]:
    started = time.perf_counter()
    model = PosencModel.load(path).to(device).eval()
    cfg = model.config
    T = cfg.context
    variants = [None, *ROPE_SCALINGS] if cfg.scheme == "rotary" and args.rope_scalings else [None]
    if args.task == "book":
        with open(args.text, "rb") as f:
            task = TextTask(f.read())
        if model.vocab is not None and model.vocab != task.tokens():
            fail(f"{path}'s vocabulary is not {args.text}'s characters")
        starts = window_starts(task.train_end, len(task.ids), 8 * T, args.windows)
        if starts is None:
            fail(f"the held-out part is shorter than one window of 8T = {8 * T}")
        if args.protocol == "sliding":
            for k in MULTIPLES:
                if (8 * T - k * T) % args.stride:
                    fail(f"--stride {args.stride} must divide 8T − kT = {8 * T - k * T}")
        evaluations = [text_evaluation(model, task.ids, starts, T, rope, args.protocol, args.stride) for rope in variants]
    else:
        task = SyntheticTask(args.task, args.symbols)
        evaluations = [synthetic_evaluation(model, task, T, args.windows, args.unit_rows, rope) for rope in variants]
    protocol = {"protocol": "sliding", "stride": args.stride} if args.protocol == "sliding" else {}
    config = {**json.loads(_config_json(model)), "B": args.batch, "lr": args.lr, "steps": args.steps,
              "windows": args.windows, **({"unitRows": args.unit_rows} if args.task != "book" else {}), **protocol}
    build = {"engine": "torch", "torch": torch.__version__, "device": device_name(device),
             **({"blas": blas_name()} if device.type == "cpu" else {})}
    timing = {"wallSeconds": round(time.perf_counter() - started, 1), "reusedShipped": False}
    return [{"task": args.task, "scheme": cfg.scheme, "variant": rope or PLAIN, "seed": args.seed, "config": config,
             "steps": args.steps, "metric": "loss" if args.task == "book" else "accuracy", **evaluation,
             "trainLoss": None, "engine": "torch", "build": build, "timing": timing}
            for rope, evaluation in zip(variants, evaluations)]


def _config_json(model) -> str:
    from .weights import config_to_json
    return config_to_json(model.config)


def device_name(device: torch.device) -> str:
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    return "cpu"


def write_store(path: str, table: str, about: str, fresh: List[dict]) -> None:
    """Adds records to a store file (one record per line), replacing those of the same run."""
    def key(r):
        return (r["scheme"], r["variant"], r["seed"], r["config"].get("protocol"), r["config"].get("stride"))
    records = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            records = json.load(f)["records"]
    kept = [r for r in records if key(r) not in {key(f) for f in fresh}]
    lines = ",\n".join(json.dumps(r, allow_nan=False) for r in kept + fresh)  # strict JSON for the JS readers
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'{{"table":{json.dumps(table)},"about":{json.dumps(about)},"records":[\n{lines}\n]}}\n')


def parse(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python3 -m posenc_lab.evaluate", description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="+", help="weights files (.safetensors)")
    p.add_argument("--task", choices=("book",) + SYNTHETIC_KINDS, default="book")
    p.add_argument("--text", default="data/moby-dick.txt")
    p.add_argument("--symbols", type=int, default=10)
    p.add_argument("--windows", type=int, default=64)
    p.add_argument("--unit-rows", type=int, default=16)
    p.add_argument("--protocol", choices=("windows", "sliding"), default="windows")
    p.add_argument("--stride", type=int, default=0, help="sliding: rows advance by this many tokens")
    p.add_argument("--no-rope-scalings", dest="rope_scalings", action="store_false",
                   help="rotary: the plain evaluation only, without the pi, ntk and yarn records")
    p.add_argument("--table", required=True, help="the store's table name (data/experiments/<table>.json)")
    p.add_argument("--out", help="the store file (default data/experiments/<table>.json)")
    p.add_argument("--seed", type=int, required=True, help="the run's seed, for the record")
    p.add_argument("--steps", type=int, required=True, help="the run's steps, for the record")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    args = p.parse_args(argv)
    if args.windows < 1:
        p.error("--windows must be at least 1")
    if args.protocol == "sliding" and args.stride < 1:
        p.error("--protocol sliding needs --stride S ≥ 1")
    if args.protocol == "windows" and args.stride:
        p.error("--stride applies to --protocol sliding only")
    return args


def main(argv=None) -> None:
    args = parse(argv)
    device = torch.device("cuda" if args.device == "cuda" else "cpu")
    fresh = []
    for path in args.models:
        records = records_for(path, args, device)
        for r in records:
            cells = ", ".join(f"{k}× {v:.4f}" for k, v in r["heldOut"].items())
            print(f"{os.path.basename(path)} {r['variant']}: {cells}", flush=True)
        fresh += records
    what = "windows of 8T held-out targets" if args.task == "book" else f"batches of {args.unit_rows} fresh examples"
    how = f", sliding rows with stride {args.stride}" if args.protocol == "sliding" else ""
    about = f"posenc_lab.evaluate ({args.task}): heldOut = mean over {args.windows} {what} at each multiple of T{how}"
    write_store(args.out or os.path.join("data", "experiments", f"{args.table}.json"), args.table, about, fresh)


if __name__ == "__main__":
    main()
