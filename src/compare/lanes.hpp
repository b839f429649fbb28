// Inside compare(): what the scheme families' files share. Not an API — compare.hpp is.
//
// compare() (compare.cpp) clears and tracks, then hands each family (scheme_table.hpp) its lanes:
//   absolute.cpp          absolute (x = αE + a table) and concatenated (x = [αE_t ; PE_p])
//   rotation.cpp          rotation (q and k rotated)
//   bias.cpp              logit bias (a bias on the logits by key − query)
//   compare.cpp           none (the bare words)
// Each family prepares its lane's x and parameters and calls run_scheme, which runs the heads and
// calls back the family's hook for what differs: identity_terms (or identity_logits), rotate_for,
// bias_table. Each also gives its schemes' score-against-distance curves (distance_curves.cpp).
// Shapes as in compare.hpp.
#pragma once

#include <cstddef>
#include <vector>

#include "base/cold.hpp"
#include "compare/compare.hpp"
#include "encodings/schemes.hpp"

namespace posenc::detail {

// How a lane's logits are made, from the scheme's family (scheme_table.hpp).
enum class Kind { decomposed, rotated, biased, plain };
Kind kind_of(Scheme s);

// Rows of a lane's kept matrix (rows of row_size floats) reusable this call.
std::size_t lane_reuse(const CompareResult& r, Scheme scheme, const std::vector<float>& kept, std::size_t row_size);
// The W = I content products αE·αEᵀ of this call (n×n, unscaled), made on first use.
const float* content_dots(const CompareConfig& cfg, CompareResult& s);
// Lane input x = αE (width d), for the schemes that leave x alone.
void set_content(SchemeResult& lane, const CompareResult& r, std::size_t d);

// Heads, logits, terms and weights of one lane whose x and parameters are set. word_part,
// position_part: the decomposed schemes' two summands of x (n×w each), read with heads only.
void run_scheme(const CompareConfig& cfg, Scheme scheme, const float* word_part, const float* position_part,
                SchemeResult& lane, CompareResult& s, bool concat_shares_content = false);

// ---- Families: their lanes (called by compare) and their hooks (called by run_scheme) ---------
// table (n×d) = the sinusoidal table; rows already there for the same (d, base, layout) are
// kept (a row does not depend on n), the others computed.
void extend_table(std::vector<float>& table, CompareCache::TableKey& key, std::size_t n, std::size_t d, double base,
                  Layout layout);
void run_absolute_lanes(const CompareConfig& cfg, const float* embeddings, const float* concat_words, CompareResult& r);
// A decomposed lane's four W = I terms into terms (4·n×n), or for a lane whose terms nobody reads
// (CompareConfig::skip_terms) their sum (sum_terms' bits, n×n) in lane.cache.logits, returned.
void identity_terms(const CompareConfig& cfg, Scheme scheme, SchemeResult& lane, float scale,
                    bool concat_shares_content, CompareResult& s, float* terms);
const float* identity_logits(const CompareConfig& cfg, Scheme scheme, SchemeResult& lane, float scale,
                             bool concat_shares_content, CompareResult& s);

void run_rotation_lanes(const CompareConfig& cfg, CompareResult& r);
float rotate_for(const CompareConfig& cfg, Scheme scheme, const SchemeResult& lane, const float* q, const float* k,
                 std::size_t d_head, float scale, std::size_t from, float* q_out, float* k_out);
// The RoPE scaling of a rotation-family scheme, with the trained/evaluation lengths and YaRN's ramp.
RopeScalingConfig rope_config(Scheme scheme, const SchemeOptions& o);

void run_bias_lanes(const CompareConfig& cfg, CompareResult& r);
void bias_table(const CompareConfig& cfg, Scheme scheme, std::size_t head, const SchemeResult& lane, CompareResult& s);

// ---- Score against distance (distance_curves): each family's row of max_distance + 1 floats ---
void absolute_curve(const CurveConfig& cfg, Scheme scheme, float* out);
void rotation_curve(const CurveConfig& cfg, Scheme scheme, float* out);
void bias_curve(const CurveConfig& cfg, Scheme scheme, float* out);
// out[k] = factor·Σ_i cos(k·ω_i)·(zeta ? ζ_i^(k/λ) : 1), k = 0 … max_distance, in double.
void cosine_sum_curve(const std::vector<double>& omega, const double* zeta, double scale_base, double factor,
                      std::size_t max_distance, float* out);

}  // namespace posenc::detail
