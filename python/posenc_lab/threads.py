"""Threads per process on CPU: torch's own kernels and the BLAS behind its matrix products.

Debian's python3-torch does its matrix products through the system's libblas.so.3 (OpenBLAS once
libopenblas0-pthread is installed; Debian's reference BLAS otherwise, an order of magnitude
slower). torch.set_num_threads does not reach that library, and OpenBLAS starts one thread per
core in every process: ranks that share a node's cores would oversubscribe them. A torch build
that brings its own BLAS (torch's BLAS_INFO other than "generic") is left to set_num_threads.
"""

from __future__ import annotations

import ctypes
from typing import Optional

import torch


def _system_blas() -> Optional[ctypes.CDLL]:
    """The system BLAS torch calls (already loaded by torch: dlopen returns that copy), or None."""
    if "BLAS_INFO=generic" not in torch.__config__.show():
        return None
    try:
        return ctypes.CDLL("libblas.so.3")
    except OSError:
        return None


def use_threads(n: int) -> None:
    """n threads (n ≥ 1) for torch's kernels and, when it is OpenBLAS, for the system BLAS."""
    if n < 1:
        raise ValueError(f"threads must be at least 1, got {n}")
    torch.set_num_threads(n)
    setter = getattr(_system_blas(), "openblas_set_num_threads", None)
    if setter is not None:
        setter(ctypes.c_int(n))


def blas_name() -> str:
    """The BLAS behind torch's matrix products, for a record: 'OpenBLAS 0.3.21 …', 'libblas.so.3'
    (a system BLAS that does not name itself, e.g. the reference one) or torch's BLAS_INFO."""
    blas = _system_blas()
    if blas is None:
        shown = torch.__config__.show()
        at = shown.find("BLAS_INFO=")
        return shown[at + len("BLAS_INFO="):].split(",")[0] if at >= 0 else "unknown"
    config = getattr(blas, "openblas_get_config", None)
    if config is None:
        return "libblas.so.3"
    config.restype = ctypes.c_char_p
    return config().decode("ascii", "replace")
