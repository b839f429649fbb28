"""Shared fixtures: the package on sys.path, and the core's reference numbers produced at test time
by driving the built wasm core (dist/posenc.mjs) from Node (core_reference.mjs).

Without dist/ the parity tests are skipped, unless POSENC_REQUIRE_CORE=1 (./scripts/test sets it
after building), where a missing core is a failure.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))

DIST = pathlib.Path(os.environ.get("POSENC_DIST", ROOT / "dist"))


def core_available() -> bool:
    return (DIST / "posenc.mjs").is_file() and shutil.which("node") is not None


def need_core():
    if core_available():
        return
    message = f"the built core ({DIST / 'posenc.mjs'}) or node is missing: run ./scripts/build"
    if os.environ.get("POSENC_REQUIRE_CORE") == "1":
        pytest.fail(message)
    pytest.skip(message)


def run_core(job: dict, out_dir: pathlib.Path) -> pathlib.Path:
    """Runs core_reference.mjs on job; returns out_dir holding its results."""
    need_core()
    out_dir.mkdir(parents=True, exist_ok=True)
    job_path = out_dir / "job.json"
    job_path.write_text(json.dumps(job))
    done = subprocess.run(["node", str(HERE / "core_reference.mjs"), str(DIST), str(job_path), str(out_dir)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError("core_reference.mjs failed:\n" + done.stderr[-4000:])
    return out_dir
