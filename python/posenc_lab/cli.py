"""posenc_lab.train's flags: posenc-train's (cli/posenc_train.cpp), spelled and defaulted the same,
plus the twin's own (ranks, device, checkpoints, JSON log). Errors name the flag and exit 2."""

from __future__ import annotations

import argparse
import math
import sys

from .adamw import AdamWOptions
from .config import PAIRINGS, SCHEMES, WORD_PCAS, ModelConfig, validate
from .tasks import MAX_BATCH, SYNTHETIC_KINDS

# posenc-train's --flag for each config field, so a refusal from validate() names the flag.
FLAG_OF_FIELD = {"scheme": "--scheme", "vocab": "--symbols", "d": "--d", "layers": "--layers", "heads": "--heads",
                 "context": "--context", "dPos": "--dpos", "base": "--base", "pairing": "--pairing",
                 "alpha": "--alpha", "positionScale": "--position-scale", "wordPca": "--word-pca",
                 "t5Buckets": "--t5-buckets", "t5MaxDistance": "--t5-max-distance", "seed": "--seed",
                 "lr": "--lr", "beta1": "--beta1", "beta2": "--beta2", "eps": "--eps",
                 "weightDecay": "--weight-decay", "clip": "--clip"}


def usage_error(message: str):
    print(f"posenc_lab.train: {message}", file=sys.stderr)
    raise SystemExit(2)


def whole(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got '{text}'") from None
    if not math.isfinite(value) or value < 0 or value != math.floor(value) or value > 1e15:
        raise argparse.ArgumentTypeError(f"must be a whole number, got '{text}'")
    return int(value)


def number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got '{text}'") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a number, got '{text}'")
    return value


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        usage_error(message)


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="python3 -m posenc_lab.train", description="Trains a PosEnc Lab model (the PyTorch twin).")
    m = p.add_argument_group("model")
    m.add_argument("--scheme", choices=SCHEMES, default="additive")
    for flag, default in (("--d", 64), ("--layers", 2), ("--heads", 4), ("--context", 64), ("--dpos", 0),
                          ("--t5-buckets", 0), ("--t5-max-distance", 0), ("--seed", 1)):
        m.add_argument(flag, type=whole, default=default)
    m.add_argument("--base", type=number, default=10000.0)
    m.add_argument("--pairing", choices=PAIRINGS, default="interleaved")
    m.add_argument("--alpha", type=number, default=1.0)
    m.add_argument("--position-scale", type=number, default=1.0)
    m.add_argument("--word-pca", choices=WORD_PCAS, default="centred")
    t = p.add_argument_group("task")
    t.add_argument("--task", choices=SYNTHETIC_KINDS + ("text", "words"), default="copy",
                   help="copy, reverse, sort, text (characters of --text) or words (tokens of --text on frozen "
                        "word vectors)")
    t.add_argument("--text", default="data/moby-dick.txt")
    t.add_argument("--held-out-text", help="words: the held-out text")
    t.add_argument("--vectors", default="data/glove-6b-100d-20k.i8", help="words: the PELVEC01 vector file")
    t.add_argument("--vocab-size", type=whole, default=4096, help="words: V, <unk> included")
    t.add_argument("--train-embedding", action="store_true", help="words: train wte instead of freezing it")
    t.add_argument("--symbols", type=whole, default=10)
    t.add_argument("--items", type=whole, default=8)
    t.add_argument("--data-seed", type=whole, default=1)
    t.add_argument("--eval-seed", type=whole, default=0, help="held-out synthetic rows; 0: data-seed's bits flipped")
    r = p.add_argument_group("training")
    r.add_argument("--batch", type=whole, default=16, help="the global batch, split across ranks")
    r.add_argument("--steps", type=whole, default=200)
    defaults = AdamWOptions()
    for flag, field in (("--lr", "lr"), ("--beta1", "beta1"), ("--beta2", "beta2"), ("--eps", "eps"),
                        ("--weight-decay", "weightDecay"), ("--clip", "clip")):
        r.add_argument(flag, type=number, default=getattr(defaults, field))
    r.add_argument("--log-every", type=whole, default=50)
    r.add_argument("--eval-batches", type=whole, default=4)
    o = p.add_argument_group("output")
    o.add_argument("--out", help="the weights file (safetensors)")
    o.add_argument("--f16", action="store_true", help="half-precision tensors (as posenc-train)")
    o.add_argument("--dtype", choices=("f32", "f16", "bf16"), default=None, help="the weights file's dtype")
    o.add_argument("--log-json", help="append one JSON object per logged step to this file")
    o.add_argument("--checkpoint", help="checkpoint file written every --save-every steps")
    o.add_argument("--save-every", type=whole, default=0)
    o.add_argument("--resume", help="a checkpoint to continue from (the same flags; --steps may grow)")
    o.add_argument("--init", help="start from this weights file (a model saved by the page, posenc-train or the "
                                  "twin): its config and weights, a fresh optimiser; the model flags are then refused")
    s = p.add_argument_group("scale")
    s.add_argument("--nproc", type=whole, default=1, help="local ranks to start (where torchrun is unavailable)")
    s.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    s.add_argument("--bf16", action="store_true", help="bf16 autocast on CUDA (off by default)")
    s.add_argument("--tf32", action="store_true", help="TF32 matmuls on CUDA (off by default)")
    s.add_argument("--threads", type=whole, default=0,
                   help="threads per rank, torch's and OpenBLAS's (0: the node's cores shared among its local "
                        "ranks; one process: torch's default)")
    return p


MODEL_FLAGS = ("--scheme", "--d", "--layers", "--heads", "--context", "--dpos", "--base", "--pairing", "--alpha",
               "--position-scale", "--word-pca", "--t5-buckets", "--t5-max-distance", "--seed")


def parse_args(argv=None) -> argparse.Namespace:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    given = [f for f in MODEL_FLAGS if any(a == f or a.startswith(f + "=") for a in argv)]
    args.alpha_given = "--alpha" in given
    if args.task == "words" and not args.held_out_text:
        usage_error("--task words needs --held-out-text")
    if args.vocab_size < 2:
        usage_error("--vocab-size must be at least 2")
    if args.init and given:
        usage_error(f"--init takes the model from its file: leave out {', '.join(given)}")
    if args.f16 and args.dtype not in (None, "f16"):
        usage_error("--f16 and --dtype disagree")
    args.dtype = "f16" if args.f16 else args.dtype or "f32"
    if args.steps < 1:
        usage_error("--steps must be at least 1")
    if args.log_every < 1:
        usage_error("--log-every must be at least 1")
    if not 1 <= args.eval_batches <= 1024:
        usage_error("--eval-batches must be from 1 to 1024")
    if not 1 <= args.nproc <= 256:
        usage_error("--nproc must be from 1 to 256")
    if not 1 <= args.batch <= MAX_BATCH:
        usage_error(f"--batch must be from 1 to {MAX_BATCH}")
    if args.batch < args.nproc:
        usage_error(f"--batch {args.batch} is smaller than --nproc {args.nproc}: every rank needs a row")
    if args.save_every and not args.checkpoint:
        usage_error("--save-every needs --checkpoint FILE")
    if args.bf16 and args.device != "cuda":
        usage_error("--bf16 applies to --device cuda only")
    if args.tf32 and args.device != "cuda":
        usage_error("--tf32 applies to --device cuda only")
    return args


def options_from_args(args, vocab: int):
    """(ModelConfig, AdamWOptions) of the flags; a refusal names the flag."""
    config = ModelConfig(scheme=args.scheme, vocab=vocab, d=args.d, layers=args.layers, heads=args.heads,
                         context=args.context, dPos=args.dpos, base=args.base, pairing=args.pairing, alpha=args.alpha,
                         positionScale=args.position_scale, wordPca=args.word_pca, t5Buckets=args.t5_buckets,
                         t5MaxDistance=args.t5_max_distance, seed=args.seed)
    error = validate(config)
    adamw = AdamWOptions(lr=args.lr, beta1=args.beta1, beta2=args.beta2, eps=args.eps,
                         weightDecay=args.weight_decay, clip=args.clip)
    error = error or adamw.validate()
    if error:
        field = error.split(" ", 1)[0]
        usage_error(f"{FLAG_OF_FIELD.get(field, field)}: {error}")
    if args.task in SYNTHETIC_KINDS and args.context < 2 * args.items:
        usage_error(f"--context must be at least 2·--items = {2 * args.items} (prompt, separator, answer)")
    return config, adamw
