// Positional schemes beyond the original three: attention biases (ALiBi, T5 relative buckets),
// rescaled RoPE frequencies for context extension (position interpolation, NTK-aware, YaRN), xPos
// and a seeded stand-in for a learned absolute table. NoPE needs no code: it is attention on the
// bare word vectors, with the causal mask as its only source of order.
//
// Shapes and terms:
//   h        — attention heads; slopes has h entries, head k = 0 … h − 1 (the paper's i = k + 1)
//   n        — sequence length; bias matrices are n×n row-major, row = query i, column = key j
//   d        — head width, even; per-pair arrays (frequencies, ζ) have d/2 entries, pair i
//   omega    — per-pair rotation frequencies ω_i (plain RoPE: base^(−2i/d), phases.hpp)
//   L, L'    — trained length and evaluation length; the scale factor s = max(1, L'/L)
// All outputs are caller-owned.
#pragma once

#include <cstddef>
#include <cstdint>

#include "encodings/phases.hpp"

namespace posenc {

// ---- ALiBi (Press, Smith & Lewis 2022, "Train Short, Test Long", §3) --------------------------
// Head k's slope: for h a power of two, m_k = 2^(−8(k+1)/h) (the geometric sequence starting and
// with ratio 2^(−8/h)); otherwise the slopes for the closest lower power of two p = 2^⌊log2 h⌋,
// followed by every other slope of the 2p-head sequence (its 1st, 3rd, …) until h are filled
// (the rule of the paper's reference code). slopes: h doubles, h ≥ 1.
void alibi_slopes(std::size_t h, double* slopes);

// out[i][j] = −m·(i − j) for j ≤ i; above the diagonal −∞ when causal (the paper's setting,
// a language model), else −m·(j − i), i.e. −m·|i − j| (a symmetric encoder variant).
void alibi_bias(double slope, std::size_t n, bool causal, float* out);

// ---- T5 relative position bias (Raffel et al. 2020, JMLR, §2.1; bucket function of the
// Mesh TensorFlow / T5 code) ---------------------------------------------------------------------
// relative = key − query position. Bidirectional: half the buckets for keys after the query
// (relative > 0, offset num_buckets/2), half for the rest, by |relative|. Causal: only
// −min(relative, 0) counts (keys after the query share bucket 0). Within the buckets b available,
// the first max_exact = b/2 hold one distance each; larger distances r get
// max_exact + ⌊ln(r/max_exact) / ln(max_distance/max_exact) · (b − max_exact)⌋, clamped to b − 1.
// Requires num_buckets ≥ 2 (≥ 4 bidirectional) and max_distance > the max_exact above.
int t5_bucket(std::int64_t relative, bool bidirectional, int num_buckets, int max_distance);

// The seeded per-bucket values standing in for T5's learned ones: num_buckets draws from N(0, 1)
// (gaussian_matrix with this seed). Not trained values — labelled as such wherever shown.
void t5_bucket_values(std::uint64_t seed, int num_buckets, float* values);

// out[i][j] = values[t5_bucket(j − i, …)] (n×n). The causal mask is attention's job (T5's decoder
// applies it separately); buckets (optional, may be null) receives the bucket indices.
void t5_bias(std::size_t n, bool bidirectional, int num_buckets, int max_distance, const float* values,
             float* out, std::int32_t* buckets = nullptr);

// ---- RoPE context extension ----------------------------------------------------------------
enum class RopeScaling { none, pi, ntk, yarn };
// The JS names, in enum order (the bindings map names, never indices; schemeTable().ropeScalings).
inline constexpr const char* kRopeScalingNames[] = {"none", "pi", "ntk", "yarn"};
static_assert(sizeof(kRopeScalingNames) / sizeof(kRopeScalingNames[0]) == static_cast<std::size_t>(RopeScaling::yarn) + 1);
// 2^20: the one cap on a context length, L or L′: compare's trainedLength and evalLength,
// ropeFrequencies' (and YaRN's α, β: turns of a pair over L, so at most L), and a trained model's
// ropeScaling.factor s = L′/L (L ≥ 1).
inline constexpr double kMaxContextLength = 1048576.0;

// The defaults here are the JS API's (schemeTable().ropeDefaults).
struct RopeScalingConfig {
    RopeScaling kind = RopeScaling::none;
    double trained_length = 2048.0;  // L
    double eval_length = 2048.0;     // L'
    double alpha = 1.0;              // YaRN ramp: pairs with r < α are fully interpolated (ω/s),
    double beta = 32.0;              // pairs with r > β kept (ω); the paper's values for LLaMA
};

// s = max(1, L'/L): nothing needs rescaling while the evaluation fits in the trained length.
double rope_scale_factor(const RopeScalingConfig& cfg);

// omega[i], i = 0 … d/2 − 1, for base and the chosen scaling (s from rope_scale_factor):
//   none — ω_i = base^(−2i/d).
//   pi   — Chen et al. 2023 (position interpolation, §2.3, eq. 4): positions m become m·L/L' = m/s.
//          rotate's exact phase split needs integral positions, so the factor goes on ω instead:
//          (m/s)·ω_i = m·(ω_i/s), the same angle. ω_i/s.
//   ntk  — NTK-aware scaling (bloc97 2023; YaRN paper §3.1): base' = base·s^(d/(d−2)), ω_i =
//          base'^(−2i/d), so the lowest frequency is divided by exactly s and the highest kept.
//   yarn — Peng et al. 2023 (YaRN, §3.2 "NTK-by-parts", used by §3.4): r_i = L/λ_i with wavelength
//          λ_i = 2π/ω_i; γ(r) = 0 for r < α, 1 for r > β, (r − α)/(β − α) between; h(ω_i) =
//          (1 − γ(r_i))·ω_i/s + γ(r_i)·ω_i, computed as ω_i/s + γ·(ω_i − ω_i/s) (equal, and exact
//          at s = 1).
// Every variant returns base^(−2i/d) bit for bit when s = 1. d even ≥ 2.
void rope_frequencies(std::size_t d, double base, const RopeScalingConfig& cfg, double* omega);

// YaRN's ramp γ(r) above.
double yarn_ramp(double r, double alpha, double beta);

// YaRN §3.4: attention logits are divided by a temperature t with √(1/t) = 0.1·ln(s) + 1 (s > 1;
// 1 otherwise). Returns √(1/t): the factor applied to both q and k (so logits gain its square).
double yarn_qk_factor(double s);

// ---- xPos (Sun et al. 2023, "A Length-Extrapolatable Transformer", ACL, §3.2) --------------------
// §3.2 eq. 9: ζ_i = (i/(d/2) + γ)/(1 + γ) = (2i/d + γ)/(1 + γ) ∈ (0, 1], i = 0 … d/2 − 1; eq. 10: a
// query at position n has pair i rotated as in RoPE and scaled by ζ_i^n, a key at m by ζ_i^(−m), so
// q_n·k_m carries ζ_i^(n−m): decay with distance. The paper's reference code (torchscale's XPOS)
// sets γ = 0.4 and divides the exponent by scale_base λ = 512 (ζ_i^(n/λ)); it also centres the
// positions on the middle of the sequence, a shift that cancels in q·k and is not applied here.
void xpos_zeta(std::size_t d, double gamma, double* zeta);

// RoPE rotation (base, pairing, position p + offset) followed by the xPos scale of pair i:
// ζ_i^(+P/λ) for queries, ζ_i^(−P/λ) for keys. out: n×d. Same limits as rotate().
void xpos_rotate(const float* x, std::size_t n, std::size_t d, double base, double offset, Layout pairing,
                 double gamma, double scale_base, bool key, float* out);
// xpos_rotate's own limits (lab.xpos; compare()'s xposGamma and xposScaleBase are the scheme
// table's): γ in (0, kMaxXposGamma], λ in [kMinXposScaleBase, kMaxXposScaleBase].
inline constexpr double kMaxXposGamma = 1e6;
inline constexpr double kMinXposScaleBase = 1.0;
inline constexpr double kMaxXposScaleBase = 1e9;

// ---- Learned-style absolute table -------------------------------------------------------------
// NOT a trained table: a seeded N(0, σ²) n×d matrix standing in for one (as GPT-2 / BERT learn a
// row per position), with σ = 1/√2, the RMS of a sinusoidal table's component (sin² + cos² = 1 per
// pair), so the two are the same size. For a given seed and d, row p does not depend on n.
inline constexpr double kLearnedTableSigma = 0.70710678118654752;
void learned_table(std::uint64_t seed, std::size_t n, std::size_t d, float* out);

}  // namespace posenc
