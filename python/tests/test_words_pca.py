"""PCA-reduced word rows (the concatenated scheme's word part narrower than the vectors): the
twin's principal axes are the core's algorithm step for step (posenc_lab.pca), so its reduced
rows are posenc-train's, signs included, up to the order of float32 sums in the projection; and
the twin trains such a model from posenc-train's flags."""

import os
import subprocess

import pytest
import torch

from conftest import ROOT
from posenc_lab import PosencModel
from posenc_lab.pca import principal_components
from posenc_lab.tasks import evaluate
from posenc_lab.vectors import UNKNOWN_TOKEN, parse_vectors
from posenc_lab.weights import load
from posenc_lab.words import word_rows
from test_parity import LOSS_TOL, compare_steps

GLOVE = ROOT / "data" / "glove-6b-100d-20k.i8"
NATIVE = ROOT / "build-native" / "posenc-train"


@pytest.mark.parametrize("centred", [True, False])
def test_the_axes_are_the_covariances_eigenvectors_by_decreasing_variance(centred):
    g = torch.Generator().manual_seed(3)
    rows = torch.randn(300, 24, generator=g) * torch.linspace(0.1, 2.0, 24) + 0.7
    pca = principal_components(rows, centred=centred)
    wide = rows.double()
    mean = wide.mean(0) if centred else torch.zeros(24, dtype=torch.float64)
    assert torch.equal(pca.mean, mean)
    cov = (wide - mean).T @ (wide - mean) / 300
    # float64 throughout: residuals at a few hundred ulps of the largest eigenvalue.
    scale = float(pca.variances[0])
    assert float((pca.axes @ pca.axes.T - torch.eye(24, dtype=torch.float64)).abs().max()) <= 1e-13
    assert float((cov @ pca.axes.T - pca.axes.T * pca.variances).abs().max()) <= 1e-13 * scale
    assert bool((pca.variances[:-1] >= pca.variances[1:]).all())
    assert float((pca.variances - torch.linalg.eigvalsh(cov).flip(0)).abs().max()) <= 1e-13 * scale
    # Uncentred, the first axis is the rows' common direction (their mean is far from 0).
    if not centred:
        common = wide.mean(0)
        assert abs(float(pca.axes[0] @ common) / float(common.norm())) > 0.9


def summation_bound(vocab, cols, word_pca="centred"):
    """[V, cols]: how far a coordinate's float32 sum of 100 products x_j·axis_j can move with the
    order of the sum: at most 100 · 2⁻²⁴ · Σ|x_j·axis_j|, plus the result's own float32 rounding."""
    full = word_rows(vocab, parse_vectors(GLOVE.read_bytes()), 100)
    words = full[[i for i, t in enumerate(vocab) if t != UNKNOWN_TOKEN]]
    axes = principal_components(words, centred=word_pca == "centred").axes[:cols]
    return 101 * 2.0 ** -24 * (full.double().abs() @ axes.abs().T)


def f16_spacing(values):
    """The gap between adjacent F16 values at each |value| (2⁻²⁴ among the subnormals)."""
    exponent = torch.floor(torch.log2(values.abs().double().clamp(min=2.0 ** -14)))
    return 2.0 ** (exponent - 10)


def test_the_shipped_concatenated_models_rows_are_the_twins():
    """data/models/concatenated.safetensors: posenc-train's F16 rows (74 of GloVe's 100 columns).
    The core sums each coordinate's 100 float32 products in SIMD lanes, the twin in BLAS order: the
    float32 results may differ by the summation bound, and an F16 rounding then lands one F16 step
    away where the value lies next to a rounding boundary (near-zero coordinates, the cancellation
    of large products, move most). A flipped axis or a wrong centring would change whole columns."""
    model = load(str(ROOT / "data" / "models" / "concatenated.safetensors"))
    assert model.config.wordPca == "centred" and model.config.d - model.config.dPos == 74
    mine = word_rows(model.vocab, parse_vectors(GLOVE.read_bytes()), 74).to(torch.float16).double()
    theirs = model.tensors["wte.weight"].double()
    assert mine.shape == theirs.shape == (model.config.vocab, 74)
    apart = (mine - theirs).abs()
    assert bool((apart <= summation_bound(model.vocab, 74) + f16_spacing(theirs)).all())
    assert int((apart > 0).sum()) <= 0.005 * apart.numel()


def words_flags(tmp_path, *extra):
    book = (ROOT / "data" / "moby-dick.txt").read_bytes()
    train_text, held_text = tmp_path / "train.txt", tmp_path / "held.txt"
    train_text.write_bytes(book[:60000])
    held_text.write_bytes(book[-20000:])
    return ["--task", "words", "--text", str(train_text), "--held-out-text", str(held_text), "--vectors", str(GLOVE),
            "--vocab-size", "256", "--scheme", "concatenated", "--d", "100", "--dpos", "26", "--heads", "5",
            "--layers", "1", "--context", "8", "--batch", "4", "--steps", "3", "--lr", "1e-2", "--clip", "0.5",
            "--log-every", "3", "--eval-batches", "2", "--threads", "1", "--alpha", "0.75", *extra]


@pytest.mark.parametrize("pca", ["centred", "uncentred"])
def test_the_twin_trains_on_reduced_rows_and_keeps_them_frozen(tmp_path, pca):
    from posenc_lab.train import main
    flags = words_flags(tmp_path, "--word-pca", pca) if pca != "centred" else words_flags(tmp_path)
    main(flags + ["--out", str(tmp_path / "twin.safetensors")])
    twin = load(str(tmp_path / "twin.safetensors"))
    assert twin.config.wordPca == pca and twin.config.frozenEmbedding
    vectors = parse_vectors(GLOVE.read_bytes())
    assert torch.equal(twin.tensors["wte.weight"], word_rows(twin.vocab, vectors, 74, pca))
    other = word_rows(twin.vocab, vectors, 74, "uncentred" if pca == "centred" else "centred")
    assert float((twin.tensors["wte.weight"] - other).abs().max()) > 0.1  # the centring is honoured
    assert UNKNOWN_TOKEN in twin.vocab


def test_word_widths_posenc_train_refuses_are_refused(tmp_path, capsys):
    from posenc_lab.train import main
    for d, dpos in (("90", "26"), ("140", "26")):  # d below the vectors' width; word part above it
        flags = words_flags(tmp_path)
        flags[flags.index("--d") + 1], flags[flags.index("--dpos") + 1] = d, dpos
        with pytest.raises(SystemExit):
            main(flags + ["--out", str(tmp_path / "refused.safetensors")])
        assert "--d must be the vectors' width 100" in capsys.readouterr().err


def test_posenc_train_and_the_twin_reduce_and_train_alike(tmp_path):
    """The same flags with a PCA-reduced word part: the same vocabulary and config, the rows within
    the projection's float32 summation bound, and after three steps the same model (the rows are
    frozen)."""
    if not NATIVE.is_file():
        message = f"{NATIVE} is missing: cmake --build build-native --target posenc_train"
        if os.environ.get("POSENC_REQUIRE_CORE") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from posenc_lab.train import main
    from test_core_files import twin_steps_with
    from posenc_lab.words import prepare_words
    flags = words_flags(tmp_path)
    native = subprocess.run([str(NATIVE), *flags, "--out", str(tmp_path / "native.safetensors")],
                            capture_output=True, text=True, timeout=120)
    assert native.returncode == 0, native.stderr
    main(flags + ["--out", str(tmp_path / "twin.safetensors")])
    theirs, mine = load(str(tmp_path / "native.safetensors")), load(str(tmp_path / "twin.safetensors"))
    assert mine.config == theirs.config and mine.vocab == theirs.vocab
    apart = (mine.tensors["wte.weight"].double() - theirs.tensors["wte.weight"].double()).abs()
    assert bool((apart <= summation_bound(mine.vocab, 74)).all())
    task, _, _ = prepare_words((tmp_path / "train.txt").read_bytes(), (tmp_path / "held.txt").read_bytes(),
                               GLOVE.read_bytes(), 256, "f32")
    model = PosencModel(mine.config, task.tokens())
    with torch.no_grad():
        model.wte.weight.copy_(mine.tensors["wte.weight"])
    grads_seen: list = []
    twin_steps_with(model, [task.batch(4, 8, 1, k, False) for k in range(3)], grads_seen)
    for name, tensor in model.named_tensors().items():
        assert torch.equal(tensor.detach(), mine.tensors[name]), name  # the CLI is the replay
    compare_steps(model, grads_seen, theirs.tensors, most_undetermined=0.05)
    final = float(native.stdout.split("final held-out loss ")[1].split()[0])
    assert abs(evaluate(model, task, 4, 8, 2, (~1) & ((1 << 64) - 1))["loss"] - final) <= LOSS_TOL
