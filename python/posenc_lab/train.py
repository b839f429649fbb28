"""python3 -m posenc_lab.train: trains one model of docs/ARCHITECTURE.md with posenc-train's flags
and seeded batch stream, on one process or data-parallel over torch.distributed ranks.

  python3 -m posenc_lab.train --scheme rotary --task copy --steps 500 --out copy-rotary.safetensors
  python3 -m posenc_lab.train --scheme alibi --task text --context 64 --steps 2000 --nproc 2
  torchrun --nnodes 2 --nproc-per-node 8 … -m posenc_lab.train --device cuda --batch 256 …

Ranks: under torchrun (WORLD_SIZE set) each process reads RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR and MASTER_PORT; --nproc N starts N local ranks itself with the same variables. The
backend is gloo on CPU and NCCL on CUDA (device cuda:LOCAL_RANK). Rank 0 evaluates, logs, writes
checkpoints and the weights file. --batch is the global batch, split across the ranks.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sys
import time
from typing import Optional

import torch
import torch.distributed as dist

from . import weights
from .adamw import AdamW
from .cli import options_from_args, parse_args, usage_error
from .model import PosencModel
from .tasks import SyntheticTask, TaskError, TextTask, evaluate
from .threads import use_threads
from .vectors import VectorsError
from .words import prepare_words, rounded, word_rows
from .training import Diverged, Ranks, train_step, trained_tensors

CHECKPOINT_FORMAT = "posenc-lab-checkpoint-1"


def fail(message: str, code: int = 2):
    """Stops this process; rank 0 alone says why (every rank meets the same refusals)."""
    if os.environ.get("RANK", "0") == "0":
        print(f"posenc_lab.train: {message}", file=sys.stderr)
    raise SystemExit(code)


def read(flag: str, path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        fail(f"cannot read {flag} {path}: {e.strerror}")


def make_task(args):
    """The task of the flags; a words task carries its input rows (input_rows) and vectors."""
    try:
        if args.task == "text":
            return TextTask(read("--text", args.text))
        if args.task == "words":
            task, task.input_rows, task.vectors = prepare_words(
                read("--text", args.text), read("--held-out-text", args.held_out_text),
                read("--vectors", args.vectors), args.vocab_size, args.dtype)
            return task
        return SyntheticTask(args.task, args.symbols, args.items)
    except (TaskError, VectorsError) as e:
        fail(str(e))


def words_config(args, config, task):
    """The word task's settings: frozen wte (unless --train-embedding), alpha 1/RMS unless given,
    and posenc-train's widths: d the vectors' width, or for concatenated d from that width to it
    + --dpos, the word part d − dPos then PCA-reduced from the vectors' width (task.input_rows
    replaced by the reduced rows)."""
    dim = task.input_rows.shape[1]
    cols = config.wte_cols
    if (cols > dim or config.d < dim) if config.scheme == "concatenated" else config.d != dim:
        fail(f"--d must be the vectors' width {dim} for --task words (concatenated: from that width to that width + --dpos)")
    if cols < dim:
        task.input_rows = rounded(word_rows(task.tokens(), task.vectors, cols, config.wordPca), args.dtype)
    alpha = config.alpha if args.alpha_given else 1.0 / task.vectors.component_rms
    return dataclasses.replace(config, frozenEmbedding=not args.train_embedding, alpha=alpha)


def eval_seed(args) -> int:
    return args.eval_seed if args.eval_seed else (~args.data_seed) & ((1 << 64) - 1)


def save_checkpoint(path: str, args, model, optimiser: AdamW, step: int) -> None:
    state = {"format": CHECKPOINT_FORMAT, "config": weights.config_to_json(model.config), "step": step,
             "vocab": model.vocab, "run": json.dumps(run_identity(args)),
             "tensors": {n: t.detach().cpu() for n, t in model.named_tensors().items()}, "adamw": optimiser.state()}
    temporary = path + ".partial"
    torch.save(state, temporary)
    os.replace(temporary, path)  # a crash mid-write leaves the last good checkpoint


def run_identity(args) -> dict:
    """The flags a resumed run must share with the run that wrote the checkpoint."""
    keys = ("task", "text", "held_out_text", "vectors", "vocab_size", "train_embedding", "symbols", "items",
            "data_seed", "batch", "lr", "beta1", "beta2", "eps", "weight_decay", "clip", "init")
    return {k: getattr(args, k) for k in keys}


def load_checkpoint(path: str, args, model, optimiser: AdamW) -> int:
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # a missing, truncated or foreign file
        fail(f"--resume {path} is not a readable checkpoint ({type(e).__name__}: {e})")
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        fail(f"--resume {path} is not a posenc_lab checkpoint")
    if state["config"] != weights.config_to_json(model.config):
        fail(f"--resume {path} holds another model: {state['config']}")
    run = json.loads(state["run"])  # JSON text: torch 1.13's weights-only loader refuses floats
    if run != run_identity(args):
        changed = sorted(k for k in run if run[k] != run_identity(args).get(k))
        fail(f"--resume {path} was written with other flags: {', '.join('--' + k.replace('_', '-') for k in changed)}")
    model.load_tensors(state["tensors"])
    optimiser.load_state(state["adamw"])
    return int(state["step"])


def start_from(path: str, task) -> PosencModel:
    """The model of a weights file, which must fit the task (its vocabulary, when it states one)."""
    try:
        model = PosencModel.load(path)
    except OSError as e:
        fail(f"cannot read --init {path}: {e.strerror}")
    except (weights.WeightsError, ValueError) as e:
        fail(f"--init {path}: {e}")
    if model.config.vocab != task.vocab_size or (model.vocab is not None and model.vocab != task.tokens()):
        fail(f"--init {path}: its vocabulary ({model.config.vocab} tokens) is not the task's ({task.vocab_size})")
    model.vocab = task.tokens()
    if model.config.frozenEmbedding:
        model.wte.weight.requires_grad_(False)
    return model


class Log:
    """Rank 0's output: a line per --log-every steps, the same as JSON lines in --log-json."""

    def __init__(self, args, is_text: bool, active: bool):
        self.args, self.is_text, self.active = args, is_text, active
        self.file = open(args.log_json, "a") if active and args.log_json else None

    def record(self, entry: dict) -> None:
        if not self.active:
            return
        if self.file:  # strict JSON: a NaN (text tasks have no accuracy) is written as null
            clean = {k: None if isinstance(v, float) and v != v else v for k, v in entry.items()}
            self.file.write(json.dumps(clean, allow_nan=False) + "\n")
            self.file.flush()
        if entry.get("kind") != "step":
            return
        line = f"step {entry['step']:6d}  loss {entry['loss']:.4f}  held-out {entry['heldOut']:.4f}"
        if not self.is_text:
            line += f"  accuracy {entry['tokenAccuracy']:.3f} (tokens) {entry['exactAccuracy']:.3f} (examples)"
        print(line + f"  {entry['tokensPerSecond']:.0f} tokens/s", flush=True)


def progress(total: int, initial: int, active: bool):
    """tqdm when installed and on a terminal; otherwise nothing."""
    if not active:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, initial=initial, disable=None, unit="step", file=sys.stderr)


def prepare(args, device: torch.device):
    """(task, model, optimiser, steps already done) of the flags, on device."""
    torch.manual_seed(0)  # nothing here draws from torch's generator; fixed for any future use
    if args.threads:
        use_threads(args.threads)
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = args.tf32
        torch.backends.cudnn.allow_tf32 = args.tf32
    task = make_task(args)
    config, adamw = options_from_args(args, task.vocab_size)
    if args.task == "words" and not args.init:
        config = words_config(args, config, task)
        unknown = float((task.ids == task.unknown_id).double().mean()) * 100
        print(f"words: {task.train_end} training tokens, {len(task.ids) - task.train_end} held out, "
              f"{unknown:.2f}% of them <unk>", flush=True)
    model = PosencModel(config, task.tokens()) if not args.init else start_from(args.init, task)
    if args.task == "words" and not args.init:
        with torch.no_grad():
            model.wte.weight.copy_(task.input_rows)  # after the seeded init, as the core does
    model.to(device)
    optimiser = AdamW(trained_tensors(model), adamw)
    start = load_checkpoint(args.resume, args, model, optimiser) if args.resume else 0
    return task, model, optimiser, start


def run(args, ranks: Ranks, device: torch.device) -> Optional[dict]:
    """The training loop on this rank; returns the final evaluation on rank 0."""
    task, model, optimiser, start = prepare(args, device)
    config = model.config
    lead = ranks.rank == 0
    log = Log(args, task.is_text, lead)
    if lead:
        print(f"{weights.config_to_json(config)} on {args.task}: {sum(p.numel() for p in model.parameters())} "
              f"parameters, B = {args.batch}, {ranks.world} rank(s) on {device}", flush=True)
    log.record({"kind": "start", "config": json.loads(weights.config_to_json(config)), "task": args.task,
                "batch": args.batch, "ranks": ranks.world, "device": str(device), "resumedAt": start})
    bar = progress(args.steps, start, lead)
    seconds, window_loss, window, final = 0.0, 0.0, 0, None
    T = config.context
    for step in range(start + 1, args.steps + 1):
        try:
            tokens, mask = task.batch(args.batch, T, args.data_seed, step - 1, False)
        except TaskError as e:
            fail(str(e))
        began = time.perf_counter()
        try:
            loss = train_step(model, optimiser, tokens, mask, ranks, args.bf16)
        except Diverged as e:
            log.record({"kind": "diverged", "step": step, "loss": e.loss, "norm": e.norm})
            fail(str(e))
        seconds += time.perf_counter() - began
        window_loss, window = window_loss + loss, window + 1
        if bar:
            bar.update(1)
        if lead and (step % args.log_every == 0 or step == args.steps):
            model.eval()
            final = evaluate(model, task, args.batch, T, args.eval_batches, eval_seed(args))
            model.train()
            log.record({"kind": "step", "step": step, "loss": window_loss / window, "heldOut": final["loss"],
                        "tokenAccuracy": final["tokenAccuracy"], "exactAccuracy": final["exactAccuracy"],
                        "tokensPerSecond": (step - start) * args.batch * T / max(seconds, 1e-9)})
            window_loss, window = 0.0, 0
        if lead and args.save_every and step % args.save_every == 0 and args.checkpoint:
            save_checkpoint(args.checkpoint, args, model, optimiser, step)
    if bar:
        bar.close()
    return finish(args, model, task, device, final, seconds, log) if lead else None


def finish(args, model, task, device: torch.device, final: Optional[dict], seconds: float, log: Log) -> dict:
    """Rank 0 after the last step: the final held-out evaluation (of the file's model when one is
    written, F16 rounding included), its lines, and the weights file."""
    T = model.config.context
    data = None
    if args.out:
        data = model.to_bytes(args.dtype)
        model.cpu().load_tensors(weights.read_weights(data).tensors)
        model.to(device)
        final = None
    if final is None:
        final = evaluate(model, task, args.batch, T, args.eval_batches, eval_seed(args))
    print(f"final held-out loss {final['loss']:.17g} (B = {args.batch}, T = {T}, {args.eval_batches} batches)")
    print(f"training seconds {seconds:.1f}")
    log.record({"kind": "final", "step": args.steps, "heldOut": final["loss"], "tokenAccuracy": final["tokenAccuracy"],
                "exactAccuracy": final["exactAccuracy"], "trainingSeconds": seconds})
    if data is not None:
        with open(args.out, "wb") as f:
            f.write(data)
        print(f"wrote {args.out} ({len(data)} bytes)")
    return final


def device_for(args, local_rank: int) -> torch.device:
    if args.device == "cuda":
        if not torch.cuda.is_available():
            fail("--device cuda: no CUDA device is available")
        return torch.device("cuda", local_rank % torch.cuda.device_count())
    return torch.device("cpu")


def rank_main(local_rank: int, args) -> None:
    """One rank, under torchrun or spawned by --nproc: the environment names its place."""
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    device = device_for(args, local_rank)
    if device.type == "cpu" and not args.threads:  # the node's cores shared among its ranks
        local_ranks = int(os.environ.get("LOCAL_WORLD_SIZE", args.nproc if args.nproc > 1 else world))
        use_threads(max(1, (os.cpu_count() or 1) // max(1, local_ranks)))
    if device.type == "cuda":
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if device.type == "cuda" else "gloo", init_method="env://",
                            rank=rank, world_size=world)
    try:
        run(args, Ranks(rank, world), device)
        dist.barrier()
    finally:
        dist.destroy_process_group()


def spawned_rank(local_rank: int, args, port: int) -> None:
    os.environ.update({"RANK": str(local_rank), "LOCAL_RANK": str(local_rank), "WORLD_SIZE": str(args.nproc),
                       "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)})
    rank_main(local_rank, args)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv=None) -> None:
    args = parse_args(argv)
    if "WORLD_SIZE" in os.environ and int(os.environ["WORLD_SIZE"]) > 1:
        if args.nproc > 1:
            usage_error("--nproc starts local ranks itself; under torchrun leave it out")
        for name in ("RANK", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
            if name not in os.environ:
                fail(f"WORLD_SIZE is set but {name} is not: start the ranks with torchrun or set all five")
        rank_main(int(os.environ["LOCAL_RANK"]), args)
    elif args.nproc > 1:
        port = int(os.environ.get("MASTER_PORT", 0)) or free_port()
        try:
            torch.multiprocessing.spawn(spawned_rank, args=(args, port), nprocs=args.nproc, join=True)
        except torch.multiprocessing.ProcessExitedException as e:  # the rank printed why
            raise SystemExit(e.exit_code if e.exit_code and e.exit_code > 0 else 1) from None
    else:
        run(args, Ranks(), device_for(args, 0))


if __name__ == "__main__":
    main()
