"""Files and batch streams shared with the core: a model saved by the core opens in the twin (with
the twin's own seeded initialisation's values) and is written back byte for byte; a model written
by the twin opens in the core and comes back byte for byte; and the twin, trained on its own
batches of a task, ends where the core's model.train ends (the same seeded batch stream)."""

import json
import pathlib

import pytest
import torch

from conftest import ROOT, run_core
from posenc_lab import ModelConfig, PosencModel
from posenc_lab.tasks import SyntheticTask, TextTask, evaluate
from posenc_lab.weights import load
from test_parity import ADAMW, LOSS_TOL, compare_steps, perturbed, twin_steps

SCHEMES = ["nope", "additive", "learned", "concatenated", "rotary", "alibi", "t5"]


def small(scheme, **extra) -> dict:
    return {"scheme": scheme, "vocab": 11, "d": 16, "layers": 2, "heads": 2, "context": 8, "seed": 5,
            **({"dPos": 4} if scheme == "concatenated" else {}), **extra}


def test_core_files_open_in_the_twin_and_are_written_back_identically(tmp_path):
    configs = [small(s) for s in SCHEMES] + [small("concatenated", frozenEmbedding=True, positionScale=0.5)]
    saves = [{"config": c, "out": str(tmp_path / f"core-{i}.safetensors")} for i, c in enumerate(configs)]
    run_core({"cases": [], "saves": saves}, tmp_path / "core")
    for config, save in zip(configs, saves):
        data = pathlib.Path(save["out"]).read_bytes()
        twin = PosencModel.from_bytes(data)
        assert twin.to_bytes() == data, config["scheme"]
        # The core's initialisation is the twin's: the same streams, Box–Muller in double; libm's
        # log/cos/sin may differ in the last double bit, which float32 rounding almost always hides.
        fresh = PosencModel(ModelConfig(**config))
        for name, tensor in fresh.named_tensors().items():
            difference = (tensor.detach() - twin.named_tensors()[name].detach()).abs()
            assert bool((difference <= tensor.detach().abs() * 2.0 ** -23).all()), (config["scheme"], name)


@pytest.mark.parametrize("dtype", ["F32", "F16"])
def test_twin_files_open_in_the_core_and_come_back_identically(tmp_path, dtype):
    paths = []
    for index, scheme in enumerate(SCHEMES):
        model = perturbed(ModelConfig(**small(scheme)), 300 + index)
        model.vocab = [f"token {i}" for i in range(11)]
        path = tmp_path / f"twin-{scheme}.safetensors"
        model.save(str(path), dtype)
        paths.append(path)
    run_core({"cases": [], "loads": [{"weights": str(p)} for p in paths]}, tmp_path / "core")
    for path in paths:
        # The core saves F32: an F16 file comes back as its values widened, exactly.
        expected = PosencModel.load(str(path)).to_bytes("F32")
        assert pathlib.Path(f"{path}.core.safetensors").read_bytes() == expected, path.name


def book_excerpt(tmp_path) -> pathlib.Path:
    text = (ROOT / "data" / "moby-dick.txt").read_text(encoding="utf-8")[:20000]
    path = tmp_path / "excerpt.txt"
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize("kind", ["text", "copy"])
def test_the_twin_trains_on_the_cores_batch_stream(tmp_path, kind):
    excerpt = book_excerpt(tmp_path)
    task = TextTask(excerpt.read_bytes()) if kind == "text" else SyntheticTask("copy", 10)
    config = ModelConfig(**{**small("rotary"), "vocab": task.vocab_size})
    model = perturbed(config, 17)
    start = tmp_path / "start.safetensors"
    model.save(str(start))
    B, T, steps, seed, eval_seed, batches = 4, 8, 3, 9, 21, 2
    spec = {"kind": "text", "textFile": str(excerpt)} if kind == "text" else {"kind": "copy", "symbols": 10}
    out = tmp_path / "core-trained.safetensors"
    run_core({"cases": [], "streams": [{"weights": str(start), "task": spec, "steps": steps, "B": B, "T": T,
                                        "seed": seed, "adamw": ADAMW, "lengths": [T, 2 * T], "batches": batches,
                                        "evalSeed": eval_seed, "out": str(out)}]}, tmp_path / "core")
    core = json.loads(pathlib.Path(f"{out}.json").read_text())
    grads_seen: list = []
    losses = twin_steps(model, [task.batch(B, T, seed, k, False) for k in range(steps)], grads_seen)
    assert max(abs(a - b) for a, b in zip(losses, core["losses"])) <= LOSS_TOL
    compare_steps(model, grads_seen, load(str(out)).tensors)
    model = PosencModel.load(str(out))  # evaluate the core's weights: only the evaluation differs
    for entry in core["evaluation"]:
        mine = evaluate(model, task, B, entry["length"], batches, eval_seed)
        assert abs(mine["loss"] - entry["loss"]) <= LOSS_TOL, entry
        if kind == "copy":
            assert mine["tokenAccuracy"] == pytest.approx(entry["accuracy"], abs=1e-12)
            assert mine["exactAccuracy"] == pytest.approx(entry["exactMatch"], abs=1e-12)


NATIVE = ROOT / "build-native" / "posenc-train"


def test_posenc_train_and_the_twin_end_in_the_same_place_from_the_same_flags(tmp_path):
    """The same flags: the same seeded initialisation, the same batches, the same steps."""
    import os
    import subprocess
    if not NATIVE.is_file():
        message = f"{NATIVE} is missing: cmake --build build-native --target posenc_train"
        if os.environ.get("POSENC_REQUIRE_CORE") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from posenc_lab.train import main
    flags = ["--scheme", "rotary", "--task", "reverse", "--d", "16", "--layers", "2", "--heads", "2", "--context", "8",
             "--items", "4", "--batch", "6", "--steps", "3", "--lr", "1e-2", "--clip", "0.5", "--seed", "5",
             "--data-seed", "7", "--log-every", "3", "--eval-batches", "2", "--threads", "1"]
    native = subprocess.run([str(NATIVE), *flags, "--out", str(tmp_path / "native.safetensors")],
                            capture_output=True, text=True, timeout=120)
    assert native.returncode == 0, native.stderr
    main(flags + ["--out", str(tmp_path / "twin.safetensors")])
    twin = load(str(tmp_path / "twin.safetensors"))
    # Replay the twin's steps in process for the gradients that say which entries rounding decides.
    config = twin.config
    model = PosencModel(config, twin.vocab)
    task = SyntheticTask("reverse", 10, 4)
    grads_seen: list = []
    twin_steps_with(model, [task.batch(6, 8, 7, k, False) for k in range(3)], grads_seen)
    for name, tensor in model.named_tensors().items():
        assert torch.equal(tensor.detach(), twin.tensors[name]), name  # the CLI is the replay
    compare_steps(model, grads_seen, load(str(tmp_path / "native.safetensors")).tensors)
    final = float(native.stdout.split("final held-out loss ")[1].split()[0])
    mine = evaluate(PosencModel.load(str(tmp_path / "twin.safetensors")), task, 6, 8, 2, (~7) & ((1 << 64) - 1))
    assert abs(mine["loss"] - final) <= LOSS_TOL


def twin_steps_with(model, steps, grads_seen):
    """twin_steps with the trainer's AdamW settings of the test above."""
    from posenc_lab import AdamW, AdamWOptions, clip_gradients
    trained = {n: p for n, p in model.named_tensors().items() if p.requires_grad}
    optimiser = AdamW(trained, AdamWOptions(lr=1e-2, clip=0.5))
    for tokens, mask in steps:
        model.zero_grad(set_to_none=True)
        model.loss(tokens, mask).backward()
        grads = {n: p.grad for n, p in trained.items()}
        grads_seen.append({n: g.detach().clone() for n, g in grads.items()})
        clip_gradients(grads, optimiser.options.clip)
        optimiser.step(grads)


def test_shipped_word_models_open_with_their_vectors(tmp_path):
    """A shipped word model leaves its frozen GloVe rows out; with the vector file the twin rebuilds
    them as the core's lab.loadModel(bytes, { vectors }) does: the same F32 file out of both."""
    from posenc_lab.vectors import VectorsError
    glove = ROOT / "data" / "glove-6b-100d-20k.i8"
    shipped = [ROOT / "data" / "models" / f"{s}.safetensors" for s in ("rotary", "alibi")]
    loads = [{"weights": str(p), "vectors": str(glove), "out": str(tmp_path / p.name)} for p in shipped]
    run_core({"cases": [], "loads": loads}, tmp_path / "core")
    for path in shipped:
        twin = PosencModel.load(str(path), vectors=str(glove))
        assert twin.to_bytes("F32") == (tmp_path / path.name).read_bytes(), path.name
    with pytest.raises(Exception, match="wte.weight is missing"):
        PosencModel.load(str(shipped[0]))
    truncated = tmp_path / "short.i8"
    truncated.write_bytes(glove.read_bytes()[:-1])
    with pytest.raises(VectorsError, match="truncated"):
        PosencModel.load(str(shipped[0]), vectors=str(truncated))


def test_the_word_task_matches_posenc_train(tmp_path):
    """--task words: the same vocabulary (frequent vector words + <unk>), frozen rows, alpha (given
    here, so both must honour --alpha over the vectors' default), batches and steps as posenc-train
    from the same flags."""
    import os
    import subprocess
    import dataclasses
    if not NATIVE.is_file():
        message = f"{NATIVE} is missing: cmake --build build-native --target posenc_train"
        if os.environ.get("POSENC_REQUIRE_CORE") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from posenc_lab.train import main
    from posenc_lab.words import prepare_words
    book = (ROOT / "data" / "moby-dick.txt").read_bytes()
    train_text, held_text = tmp_path / "train.txt", tmp_path / "held.txt"
    train_text.write_bytes(book[:60000])
    held_text.write_bytes(book[-20000:])
    glove = ROOT / "data" / "glove-6b-100d-20k.i8"
    flags = ["--task", "words", "--text", str(train_text), "--held-out-text", str(held_text), "--vectors", str(glove),
             "--vocab-size", "256", "--scheme", "alibi", "--d", "100", "--heads", "5", "--layers", "1", "--context", "8",
             "--batch", "4", "--steps", "3", "--lr", "1e-2", "--clip", "0.5", "--log-every", "3", "--eval-batches", "2",
             "--threads", "1", "--alpha", "0.75"]
    native = subprocess.run([str(NATIVE), *flags, "--out", str(tmp_path / "native.safetensors")],
                            capture_output=True, text=True, timeout=120)
    assert native.returncode == 0, native.stderr
    main(flags + ["--out", str(tmp_path / "twin.safetensors")])
    theirs, mine = load(str(tmp_path / "native.safetensors")), load(str(tmp_path / "twin.safetensors"))
    assert mine.config == theirs.config and mine.vocab == theirs.vocab
    assert torch.equal(mine.tensors["wte.weight"], theirs.tensors["wte.weight"])  # frozen: the vectors' rows
    task, rows, vectors = prepare_words(train_text.read_bytes(), held_text.read_bytes(), glove.read_bytes(), 256, "f32")
    model = PosencModel(mine.config, task.tokens())
    with torch.no_grad():
        model.wte.weight.copy_(rows)
    grads_seen: list = []
    twin_steps_with(model, [task.batch(4, 8, 1, k, False) for k in range(3)], grads_seen)
    # From the seeded initialisation (weights N(0, 0.02)) attention is nearly uniform, so the query
    # and key weights' gradients are real but about 1e-5 of their tensor's largest (the values'):
    # the NOISE rule leaves more of them out than of a perturbed model, hence a looser share.
    compare_steps(model, grads_seen, theirs.tensors, most_undetermined=0.05)
    final = float(native.stdout.split("final held-out loss ")[1].split()[0])
    assert abs(evaluate(model, task, 4, 8, 2, (~1) & ((1 << 64) - 1))["loss"] - final) <= LOSS_TOL
