#include "compare.hpp"

#include <algorithm>
#include <cmath>

#include "attention.hpp"
#include "embedding.hpp"
#include "encodings.hpp"
#include "limits.hpp"
#include "rotary.hpp"
#include "sinusoidal.hpp"

namespace posenc {

const char* validate(const CompareConfig& cfg) {
    if (const char* e = limits::check_rows_dim(cfg.n, cfg.d, limits::kMaxCompareTokens, true)) return e;
    if (const char* e = limits::check_base(cfg.base)) return e;
    if (!std::isfinite(cfg.alpha)) return "alpha must be a finite number";
    if (!std::isfinite(cfg.scale) || cfg.scale < 0.0f) return "scale must be a finite number ≥ 0 (0 means 1/√d_head)";
    if (cfg.d_pos < 2 || cfg.d_pos % 2 != 0) return "d_pos must be an even number ≥ 2";
    if (cfg.concat_mode == ConcatMode::same_width && cfg.d_pos >= cfg.d) {
        return "d_pos must be smaller than d when the concatenation keeps the same width";
    }
    if (cfg.d_pos > limits::kMaxDim) return "d_pos must be at most 4096";
    if (cfg.heads > limits::kMaxHeads) return "heads must be at most 64";
    if (std::max<std::size_t>(cfg.heads, 1) * cfg.n * cfg.n > limits::kMaxElements) {
        return "heads·n² must be at most 16777216 (fewer heads or tokens)";
    }
    if (cfg.heads > 0) {
        const std::size_t widened = cfg.concat_mode == ConcatMode::widened ? cfg.d + cfg.d_pos : cfg.d;
        if (cfg.d % cfg.heads != 0 || widened % cfg.heads != 0) return "heads must divide every scheme's width";
        if ((cfg.d / cfg.heads) % 2 != 0) return "d / heads must be even (rotary pairs dimensions)";
    }
    return nullptr;
}

namespace {
std::uint64_t head_matrix_seed(std::uint64_t seed, std::size_t width, std::size_t head, std::size_t which) {
    return hash_token("head") ^ (seed * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t{width} << 40) ^
           (std::uint64_t{head} << 8) ^ which;
}

// out = terms[0] + terms[1] + terms[2] + terms[3] (four n×n blocks of count entries each).
void sum_terms(const float* terms, std::size_t count, float* out) {
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = ((terms[i] + terms[count + i]) + terms[2 * count + i]) + terms[3 * count + i];
    }
}

void run_scheme(const CompareConfig& cfg, bool is_rotary, const float* word_part,
                const float* position_part, SchemeResult& scheme, CompareResult& s) {
    const std::size_t n = cfg.n, w = scheme.width, nn = n * n;
    const std::size_t head_count = std::max<std::size_t>(cfg.heads, 1);
    const std::size_t d_head = w / head_count;
    const float scale = cfg.scale > 0.0f ? cfg.scale : 1.0f / std::sqrt(static_cast<float>(d_head));
    scheme.weights.resize(head_count * nn);
    scheme.term_count = is_rotary ? 1 : 4;
    scheme.terms.resize(scheme.term_count * nn);
    s.q.resize(n * d_head);
    s.k.resize(n * d_head);
    s.q2.resize(n * d_head);
    s.k2.resize(n * d_head);
    s.w_q.resize(w * d_head);
    s.w_k.resize(w * d_head);

    for (std::size_t head = 0; head < head_count; ++head) {
        const float* q = scheme.x.data();
        const float* k = scheme.x.data();
        if (cfg.heads > 0) {
            const double sigma = 1.0 / std::sqrt(static_cast<double>(w));
            gaussian_matrix(head_matrix_seed(cfg.head_seed, w, head, 0), w, d_head, sigma, s.w_q.data());
            gaussian_matrix(head_matrix_seed(cfg.head_seed, w, head, 1), w, d_head, sigma, s.w_k.data());
            project(scheme.x.data(), n, w, s.w_q.data(), d_head, s.q.data());
            project(scheme.x.data(), n, w, s.w_k.data(), d_head, s.k.data());
            q = s.q.data();
            k = s.k.data();
        }
        if (is_rotary) {
            rotate(q, n, d_head, cfg.base, 0.0, cfg.pairing, s.q2.data());
            rotate(k, n, d_head, cfg.base, 0.0, cfg.pairing, s.k2.data());
            q = s.q2.data();
            k = s.k2.data();
        }
        float* weights = scheme.weights.data() + head * nn;
        if (cfg.heads == 0) {
            // W = I: the logits are the terms (rotary) or their sum (additive, concatenated), so
            // they are derived rather than computed a second time. softmax_rows never reads
            // above the diagonal of a causal row, so the unmasked logits serve both cases.
            if (is_rotary) {
                attention_scores(q, k, n, n, d_head, scale, false, scheme.terms.data());
                std::copy(scheme.terms.begin(), scheme.terms.end(), weights);
            } else {
                logit_terms(word_part, position_part, word_part, position_part, n, d_head, scale, scheme.terms.data());
                sum_terms(scheme.terms.data(), nn, weights);
            }
            softmax_rows(weights, n, n, cfg.causal, weights);
            continue;
        }
        if (head == 0 && is_rotary) {
            attention_scores(q, k, n, n, d_head, scale, false, scheme.terms.data());
        }
        attention_scores(q, k, n, n, d_head, scale, cfg.causal, weights);
        softmax_rows(weights, n, n, cfg.causal, weights);

        if (head == 0 && !is_rotary) {
            s.projected.resize(4 * n * d_head);
            float* p = s.projected.data();
            project(word_part, n, w, s.w_q.data(), d_head, p);
            project(position_part, n, w, s.w_q.data(), d_head, p + n * d_head);
            project(word_part, n, w, s.w_k.data(), d_head, p + 2 * n * d_head);
            project(position_part, n, w, s.w_k.data(), d_head, p + 3 * n * d_head);
            logit_terms(p, p + n * d_head, p + 2 * n * d_head, p + 3 * n * d_head, n, d_head, scale,
                        scheme.terms.data());
        }
    }
}
}  // namespace

void compare(const CompareConfig& cfg, const float* embeddings, CompareResult& r, const float* concat_words) {
    const std::size_t n = cfg.n, d = cfg.d, d_pos = cfg.d_pos;
    r.pe.resize(n * d);
    r.pe_concat.resize(n * d_pos);
    sinusoidal_table(n, d, cfg.base, cfg.layout, r.pe.data());
    sinusoidal_table(n, d_pos, cfg.base, cfg.layout, r.pe_concat.data());

    // Rotary leaves x = αE untouched (q and k are rotated inside run_scheme); αE is also the
    // additive scheme's content part.
    r.rotary.width = d;
    r.rotary.x.resize(n * d);
    for (std::size_t i = 0; i < n * d; ++i) r.rotary.x[i] = cfg.alpha * embeddings[i];

    // Additive: x = αE + PE.
    r.additive.width = d;
    r.additive.x.resize(n * d);
    add_encoding(embeddings, cfg.alpha, r.pe.data(), n * d, r.additive.x.data());
    run_scheme(cfg, false, r.rotary.x.data(), r.pe.data(), r.additive, r);

    // Concatenated: x = [αE_t ; PE_p]; the parts are x with the other block zeroed.
    const std::size_t d_word = cfg.concat_mode == ConcatMode::same_width ? d - d_pos : d;
    const std::size_t w = d_word + d_pos;
    r.concatenated.width = w;
    r.concatenated.x.resize(n * w);
    concatenate_encoding(concat_words ? concat_words : embeddings, n, d, d_word, cfg.alpha, r.pe_concat.data(), d_pos, r.concatenated.x.data());
    r.word_part.assign(n * w, 0.0f);
    r.position_part.assign(n * w, 0.0f);
    for (std::size_t p = 0; p < n; ++p) {
        const float* row = r.concatenated.x.data() + p * w;
        std::copy(row, row + d_word, r.word_part.data() + p * w);
        std::copy(row + d_word, row + w, r.position_part.data() + p * w + d_word);
    }
    run_scheme(cfg, false, r.word_part.data(), r.position_part.data(), r.concatenated, r);

    run_scheme(cfg, true, nullptr, nullptr, r.rotary, r);
}

}  // namespace posenc
