// Plain-JavaScript versions of the benchmarked kernels, written the way a tutorial author would:
// Float32Arrays, straightforward loops, Math.sin/cos/exp/pow, no tricks. Same inputs and outputs
// as the wasm kernels (bench/kernels.cpp).

export function sinusoidal(n, d, out) {
  for (let p = 0; p < n; p++) {
    for (let i = 0; i < d / 2; i++) {
      const angle = p / Math.pow(10000, (2 * i) / d);
      out[p * d + 2 * i] = Math.sin(angle);
      out[p * d + 2 * i + 1] = Math.cos(angle);
    }
  }
}

export function rotate(x, n, d, out) {
  for (let p = 0; p < n; p++) {
    for (let i = 0; i < d / 2; i++) {
      const theta = p * Math.pow(10000, (-2 * i) / d);
      const cos = Math.cos(theta), sin = Math.sin(theta);
      const a = x[p * d + 2 * i], b = x[p * d + 2 * i + 1];
      out[p * d + 2 * i] = a * cos - b * sin;
      out[p * d + 2 * i + 1] = a * sin + b * cos;
    }
  }
}

export function scores(q, k, n, d, scale, out) {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let c = 0; c < d; c++) sum += q[i * d + c] * k[j * d + c];
      out[i * n + j] = sum * scale;
    }
  }
}

export function softmax(s, n, out) {
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) max = Math.max(max, s[i * n + j]);
    let sum = 0;
    for (let j = 0; j < n; j++) {
      const e = Math.exp(s[i * n + j] - max);
      out[i * n + j] = e;
      sum += e;
    }
    for (let j = 0; j < n; j++) out[i * n + j] /= sum;
  }
}

// The textbook matrix product: out[i][c] = Σ_j w[i][j]·v[j][c].
export function weightedSum(w, v, n, d, out) {
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += w[i * n + j] * v[j * d + c];
      out[i * d + c] = sum;
    }
  }
}

export function attention(q, k, v, n, d, weights, out) {
  scores(q, k, n, d, 1 / Math.sqrt(d), weights);
  softmax(weights, n, weights);
  weightedSum(weights, v, n, d, out);
}

export function attentionCausal(q, k, v, n, d, weights, out) {
  scores(q, k, n, d, 1 / Math.sqrt(d), weights);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) weights[i * n + j] = -Infinity;
  softmax(weights, n, weights);
  weightedSum(weights, v, n, d, out);
}

// Additive scheme's four logit terms: content·content, content·position, position·content, position·position.
export function decomposition(a, b, n, d, terms) {
  const nn = n * n, scale = 1 / Math.sqrt(d);
  scores(a, a, n, d, scale, terms.subarray(0, nn));
  scores(a, b, n, d, scale, terms.subarray(nn, 2 * nn));
  scores(b, a, n, d, scale, terms.subarray(2 * nn, 3 * nn));
  scores(b, b, n, d, scale, terms.subarray(3 * nn, 4 * nn));
}

// Brute-force identity retrieval: x_p = 3·û_t + PE(p), cosine against every unit vocabulary row.
export function identityBrute(unitVocab, v, truth, n, d, pe, x, best, rank) {
  sinusoidal(n, d, pe);
  for (let p = 0; p < n; p++) {
    for (let j = 0; j < d; j++) x[p * d + j] = 3 * unitVocab[truth[p] * d + j] + pe[p * d + j];
    let norm = 0;
    for (let j = 0; j < d; j++) norm += x[p * d + j] * x[p * d + j];
    norm = Math.sqrt(norm);
    let bestCos = -2, bestRow = 0, truthCos = 0;
    for (let j = 0; j < d; j++) truthCos += x[p * d + j] * unitVocab[truth[p] * d + j];
    truthCos /= norm;
    let better = 0;
    for (let r = 0; r < v; r++) {
      let dot = 0;
      for (let j = 0; j < d; j++) dot += x[p * d + j] * unitVocab[r * d + j];
      const c = dot / norm;
      if (c > bestCos) { bestCos = c; bestRow = r; }
      if (c > truthCos || (c === truthCos && r < truth[p])) better++;
    }
    best[p] = bestRow;
    rank[p] = better + 1;
  }
}

// The cached form (retrieval.hpp) in plain JS: rows content[t][r] = e_t·û_r and position[p][r]
// exist already; each call decodes every token from them.
export function identityCached(content, position, v, n, alpha, best, rank, truth) {
  for (let p = 0; p < n; p++) {
    const c = content[p], q = position[p];
    const st = alpha * c[truth[p]] + q[truth[p]];
    let bestScore = -Infinity, bestRow = 0, better = 0;
    for (let r = 0; r < v; r++) {
      const s = alpha * c[r] + q[r];
      if (s > bestScore) { bestScore = s; bestRow = r; }
      if (s > st || (s === st && r < truth[p])) better++;
    }
    best[p] = bestRow;
    rank[p] = better + 1;
  }
}
