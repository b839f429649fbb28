"""Principal axes of word rows, as the core computes them (src/analysis/pca.hpp): the concatenated
scheme's word part keeps a word vector's first d − dPos principal coordinates.

The covariance (the rows' second moments about their mean, or about 0 when uncentred; 1/v) is
taken in float64, then decomposed by the same algorithm as the core's, Householder
tridiagonalisation and implicit QL (EISPACK tred2/tql2, as in JAMA), step for step in float64. An
eigenvector's sign is whatever that algorithm leaves, not a convention a library would pick (a
general eigensolver may return −axis), so the same steps are what make the coordinates the core's.
Axes are ordered by decreasing eigenvalue, equal ones keeping the algorithm's order.

Shapes: rows [v, d]; mean [d]; axes [d, d] (row a the a-th axis, unit length); variances [d].
"""

from __future__ import annotations

import dataclasses
import math
from typing import List

import torch


@dataclasses.dataclass
class Pca:
    mean: torch.Tensor       # float64 [d]; zeros when uncentred
    axes: torch.Tensor       # float64 [d, d]
    variances: torch.Tensor  # float64 [d], decreasing

    def project(self, x: torch.Tensor, k: int) -> torch.Tensor:
        """[n, k] float32: x·axis_a in float32, less mean·axis_a (float64), rounded to float32, as
        the core's Pca::project (which sums the float32 products in its SIMD lanes' order; the
        results can differ from these in the last bit)."""
        axes = self.axes[:k]
        along = (self.mean[None, :] * axes).sum(1)
        return ((x.to(torch.float32) @ axes.to(torch.float32).T).double() - along).to(torch.float32)


def principal_components(rows: torch.Tensor, centred: bool = True) -> Pca:
    v, d = rows.shape
    if v < 1:
        raise ValueError("principal_components needs at least one row")
    wide = rows.to(torch.float64)
    mean = wide.mean(0) if centred else torch.zeros(d, dtype=torch.float64)
    x = wide - mean
    cov = (x.T @ x) / v
    matrix = [list(map(float, row)) for row in cov.tolist()]
    diagonal, off = _tridiagonalize(d, matrix)
    _tridiagonal_eigen(d, matrix, diagonal, off)
    # Decreasing eigenvalue; a stable sort keeps equal ones in column order, as the core's.
    order = sorted(range(d), key=lambda c: -diagonal[c])
    vectors = torch.tensor(matrix, dtype=torch.float64)  # column c: the eigenvector of diagonal[c]
    axes = vectors[:, order].T.contiguous()
    variances = torch.tensor([max(0.0, diagonal[c]) for c in order], dtype=torch.float64)
    return Pca(mean, axes, variances)


def _tridiagonalize(n: int, V: List[List[float]]):
    """tred2: V (symmetric, n×n) → the orthogonal transformation; returns (diagonal, subdiagonal)."""
    dg = list(V[n - 1])
    e = [0.0] * n
    for i in range(n - 1, 0, -1):
        scale = sum(abs(dg[k]) for k in range(i))
        h = 0.0
        if scale == 0.0:
            e[i] = dg[i - 1]
            for j in range(i):
                dg[j] = V[i - 1][j]
                V[i][j] = 0.0
                V[j][i] = 0.0
        else:
            for k in range(i):
                dg[k] /= scale
                h += dg[k] * dg[k]
            f = dg[i - 1]
            g = math.sqrt(h)
            if f > 0:
                g = -g
            e[i] = scale * g
            h -= f * g
            dg[i - 1] = f - g
            for j in range(i):
                e[j] = 0.0
            for j in range(i):
                f = dg[j]
                V[j][i] = f
                g = e[j] + V[j][j] * f
                for k in range(j + 1, i):
                    g += V[k][j] * dg[k]
                    e[k] += V[k][j] * f
                e[j] = g
            f = 0.0
            for j in range(i):
                e[j] /= h
                f += e[j] * dg[j]
            hh = f / (h + h)
            for j in range(i):
                e[j] -= hh * dg[j]
            for j in range(i):
                f = dg[j]
                g = e[j]
                for k in range(j, i):
                    V[k][j] -= f * e[k] + g * dg[k]
                dg[j] = V[i - 1][j]
                V[i][j] = 0.0
        dg[i] = h
    # The reflectors multiplied into the transformation; the diagonal read back.
    for i in range(n - 1):
        V[n - 1][i] = V[i][i]
        V[i][i] = 1.0
        h = dg[i + 1]
        if h != 0.0:
            for k in range(i + 1):
                dg[k] = V[k][i + 1] / h
            for j in range(i + 1):
                g = 0.0
                for k in range(i + 1):
                    g += V[k][i + 1] * V[k][j]
                for k in range(i + 1):
                    V[k][j] -= g * dg[k]
        for k in range(i + 1):
            V[k][i + 1] = 0.0
    for j in range(n):
        dg[j] = V[n - 1][j]
        V[n - 1][j] = 0.0
    V[n - 1][n - 1] = 1.0
    e[0] = 0.0
    return dg, e


def _tridiagonal_eigen(n: int, V: List[List[float]], dg: List[float], e: List[float]) -> None:
    """tql2: eigenvalues of the tridiagonal (dg, e) into dg, eigenvectors into V's columns."""
    for i in range(1, n):
        e[i - 1] = e[i]
    e[n - 1] = 0.0
    f = tst1 = 0.0
    eps = math.ldexp(1.0, -52)
    for l in range(n):
        tst1 = max(tst1, abs(dg[l]) + abs(e[l]))
        m = l
        while m < n - 1 and not abs(e[m]) <= eps * tst1:
            m += 1
        if m > l:
            for _ in range(100):
                g = dg[l]
                p = (dg[l + 1] - g) / (2.0 * e[l])
                r = math.hypot(p, 1.0)
                if p < 0:
                    r = -r
                dg[l] = e[l] / (p + r)
                dg[l + 1] = e[l] * (p + r)
                dl1 = dg[l + 1]
                h = g - dg[l]
                for i in range(l + 2, n):
                    dg[i] -= h
                f += h
                p = dg[m]
                c = c2 = c3 = 1.0
                s = s2 = 0.0
                el1 = e[l + 1]
                for i in range(m - 1, l - 1, -1):
                    c3 = c2
                    c2 = c
                    s2 = s
                    g = c * e[i]
                    h = c * p
                    r = math.hypot(p, e[i])
                    e[i + 1] = s * r
                    s = e[i] / r
                    c = p / r
                    p = c * dg[i] - s * g
                    dg[i + 1] = h + s * (c * g + s * dg[i])
                    for row in V:
                        h = row[i + 1]
                        row[i + 1] = s * row[i] + c * h
                        row[i] = c * row[i] - s * h
                p = -s * s2 * c3 * el1 * e[l] / dl1
                e[l] = s * p
                dg[l] = c * p
                if not abs(e[l]) > eps * tst1:
                    break
        dg[l] += f
        e[l] = 0.0
