// The schemes that encode position in x: additive (αE + PE), learned (αE + a seeded table) and
// concatenated ([αE_t ; PE_p]), whose logits decompose into content and position terms.
#include <algorithm>
#include <cmath>

#include "compare/lanes.hpp"
#include "encodings/encodings.hpp"
#include "attention/products.hpp"
#include "encodings/sinusoidal.hpp"

namespace posenc::detail {

POSENC_COLD void extend_table(std::vector<float>& table, CompareCache::TableKey& key, std::size_t n, std::size_t d,
                              double base, Layout layout) {
    const bool same = key.d == d && key.base == base && key.layout == layout;
    const std::size_t kept = same ? std::min(n, table.size() / d) : 0;
    table.resize(n * d);
    if (kept < n) sinusoidal_table(n - kept, d, base, layout, table.data() + kept * d, static_cast<double>(kept));
    key = {d, base, layout};
}

namespace {
// scale·PE·PEᵀ for a sinusoidal table PE (n×d, rows at positions 0 … n − 1), by offset: the
// returned table (2n − 1 entries, s.work.bias_by_offset) holds entry (i, j) at j − i + n − 1.
// PE(i)·PE(j) = Σ_k sin(iω_k)sin(jω_k) + cos(iω_k)cos(jω_k) = Σ_k cos((i − j)ω_k) = PE(|i − j|)·PE(0),
// so n dot products (in double, one rounding to float) replace n² dot products. Each entry is
// exactly a function of |i − j|; against the float64 product of the float32 table rows it
// differs by the table's own rounding, ≤ d·2^-24·scale (PE entries are within 2^-24 of
// sin/cos; both sides are sums of d/2 such cos values or pairs of products).
POSENC_COLD const float* sinusoid_by_offset(const float* table, std::size_t n, std::size_t d, float scale, CompareResult& s,
                                            std::vector<float>& by_distance) {
    // by_distance[k] = PE(k)·PE(0)·scale depends on the settings only: the last call's entries are
    // kept while they stay the same (by_distance arrives emptied otherwise).
    const std::size_t known = std::min(n, by_distance.size());
    by_distance.resize(n);
    for (std::size_t k = known; k < n; ++k) {
        double sum = 0.0;
        for (std::size_t c = 0; c < d; ++c) sum += static_cast<double>(table[k * d + c]) * table[c];
        by_distance[k] = static_cast<float>(sum * static_cast<double>(scale));
    }
    s.work.bias_by_offset.resize(2 * n - 1);
    for (std::size_t k = 0; k < n; ++k) s.work.bias_by_offset[n - 1 + k] = s.work.bias_by_offset[n - 1 - k] = by_distance[k];
    return s.work.bias_by_offset.data();
}

// The sources of a sinusoidal lane's W = I terms (additive, concatenated) as rows: term 0 =
// a·(m's product), terms 1 and 2 from c's product and its transpose (c.a null: none, both
// exactly +0), term 3 by offset (p_rows + i·(−1) is row i). Nothing n×n is made here:
// identity_sources refreshes the kept products from these rows, sum_identity_region sums a key's
// new rows from them alone.
//   content·content  αE·αEᵀ (unscaled, times a = scale), shared with the other lanes as
//                    content_dots; concatenated: its word coordinates' own gram, times scale,
//                    unless those are αE itself (widened without a basis)
//   cross terms      concatenated: none (disjoint coordinates); additive: αE·PEᵀ times scale
//   position·position the sinusoidal table's from the n offsets (sinusoid_by_offset)
struct IdentityRows {
    RowProduct m;
    float a;
    RowProduct c;
    const float* p_rows;
};

POSENC_COLD IdentityRows identity_rows(const CompareConfig& cfg, Scheme scheme, SchemeResult& lane, float scale,
                                       bool concat_shares_content, CompareResult& s) {
    const std::size_t n = cfg.n, d = cfg.d;
    const float* content = s.work.content.data();
    const RowProduct content_gram{content, content, d, d, 1.0f};  // content_dots' rows
    if (scheme == Scheme::concatenated) {
        const float* by_offset = sinusoid_by_offset(s.pe_concat.data(), n, cfg.d_pos, scale, s, lane.cache.distances);
        const RowProduct none{nullptr, nullptr, 0, 0, 0.0f};
        if (concat_shares_content) return {content_gram, scale, none, by_offset + (n - 1)};
        const float* x = lane.x.data();
        return {{x, x, lane.width - cfg.d_pos, lane.width, scale}, 1.0f, none, by_offset + (n - 1)};
    }
    const float* by_offset = sinusoid_by_offset(s.pe.data(), n, d, scale, s, lane.cache.distances);
    return {content_gram, scale, {content, s.pe.data(), d, d, scale}, by_offset + (n - 1)};
}

// The four W = I terms of a decomposed lane, as sources (not yet formed): term 0 = a·m, terms 1
// and 2 = c and cᵀ (c null: both exactly +0), term 3's row i at p_rows + i·p_step
// (products.hpp's rows and step).
struct IdentitySources {
    const float* m;
    float a;
    const float* c;
    const float* p_rows;
    std::ptrdiff_t p_step;
};

// W = I terms of a decomposed scheme (n×n each, times scale) without forming products that are
// known in advance: the sinusoidal lanes' from identity_rows, each of their products (but the
// shared content_dots) kept in the lane's cache; learned's cross terms as additive's with its
// table, and its position·position term the table's symmetric product. The kept products are
// refreshed here (row reuse), the cross terms' transpose read by the caller (the same products in
// the same order, so bit for bit); the sources stay valid until the next lane runs.
POSENC_COLD IdentitySources identity_sources(const CompareConfig& cfg, Scheme scheme, SchemeResult& lane, float scale,
                                             bool concat_shares_content, CompareResult& s) {
    const std::size_t n = cfg.n, d = cfg.d;
    const std::size_t keep = lane_reuse(s, scheme, lane.cache.product, s.cache.last_n);
    const auto refresh = [&](const RowProduct& p) {
        refresh_product(p.a, p.b, n, p.d, p.stride, p.scale, keep, s.cache.last_n, s.work.gram_pack, lane.cache.product);
        return lane.cache.product.data();
    };
    if (scheme != Scheme::learned) {
        // A lane's own product is m (concatenated's word gram) or c (additive's), never both.
        const IdentityRows rows = identity_rows(cfg, scheme, lane, scale, concat_shares_content, s);
        const float* m = rows.m.a == s.work.content.data() ? content_dots(cfg, s) : refresh(rows.m);
        return {m, rows.a, rows.c.a ? refresh(rows.c) : nullptr, rows.p_rows, -1};
    }
    const float* table = s.cache.table.data();
    const float* dots = content_dots(cfg, s);
    refresh({s.work.content.data(), table, d, d, scale});
    refresh_product(table, table, n, d, d, scale, lane_reuse(s, scheme, lane.cache.position, s.cache.last_n), s.cache.last_n,
                    s.work.gram_pack, lane.cache.position);
    return {dots, scale, lane.cache.product.data(), lane.cache.position.data(), static_cast<std::ptrdiff_t>(n)};
}
}  // namespace

POSENC_COLD void identity_terms(const CompareConfig& cfg, Scheme scheme, SchemeResult& lane, float scale,
                                bool concat_shares_content, CompareResult& s, float* terms) {
    const std::size_t n = cfg.n, nn = n * n;
    const IdentitySources src = identity_sources(cfg, scheme, lane, scale, concat_shares_content, s);
    if (src.a == 1.0f) std::copy_n(src.m, nn, terms);
    else scale_into(src.a, src.m, nn, terms);
    if (src.c) {
        std::copy_n(src.c, nn, terms + nn);
        transpose(src.c, n, terms + 2 * nn);
    } else {
        std::fill(terms + nn, terms + 3 * nn, 0.0f);
    }
    for (std::size_t i = 0; i < n; ++i) {
        std::copy_n(src.p_rows + static_cast<std::ptrdiff_t>(i) * src.p_step, n, terms + 3 * nn + i * n);
    }
}

// The summed logits are kept in the lane's cache: a key's rows and columns are summed, the rest
// stand from the last call (the same sources there, so the same bits). For a sinusoidal lane
// those rows and columns come from the vectors (sum_identity_region) rather than from kept n×n
// products: refreshing a product's new column touches every memory page of it (n×n row-major),
// and after the thread has been idle each first touch costs (bench/idle-pages.mjs).
POSENC_COLD const float* identity_logits(const CompareConfig& cfg, Scheme scheme, SchemeResult& lane, float scale,
                                         bool concat_shares_content, CompareResult& s) {
    std::vector<float>& logits = lane.cache.logits;
    const std::size_t keep = lane_reuse(s, scheme, logits, s.cache.last_n);
    if (keep > 0 && scheme != Scheme::learned) {
        const IdentityRows src = identity_rows(cfg, scheme, lane, scale, concat_shares_content, s);
        restride(logits, s.cache.last_n, keep, cfg.n);
        lane.cache.product.clear();  // not refreshed: none kept for the next call (lane_reuse)
        sum_identity_region(src.m, src.a, src.c, src.p_rows, -1, cfg.n, keep, s.work.region, s.work.gram_pack,
                            logits.data());
        return logits.data();
    }
    const IdentitySources src = identity_sources(cfg, scheme, lane, scale, concat_shares_content, s);
    restride(logits, s.cache.last_n, keep, cfg.n);
    sum_identity_terms(src.m, src.a, src.c, src.p_rows, src.p_step, cfg.n, keep, logits.data());
    return logits.data();
}

POSENC_COLD void run_absolute_lanes(const CompareConfig& cfg, const float* embeddings, const float* concat_words,
                                    CompareResult& r) {
    const std::size_t n = cfg.n, d = cfg.d, d_pos = cfg.d_pos;
    const SchemeSet set = cfg.schemes;
    if (has(set, Scheme::additive)) {
        // x = αE + PE.
        extend_table(r.pe, r.cache.pe_key, n, d, cfg.base, cfg.layout);
        r.additive.width = d;
        r.additive.x.resize(n * d);
        add_encoding(embeddings, cfg.alpha, r.pe.data(), n * d, r.additive.x.data());
        run_scheme(cfg, Scheme::additive, r.work.content.data(), r.pe.data(), r.additive, r);
    }

    if (has(set, Scheme::concatenated)) {
        // x = [αE_t ; PE_p]; the parts are x with the other block zeroed.
        extend_table(r.pe_concat, r.cache.pe_concat_key, n, d_pos, cfg.base, cfg.layout);
        const std::size_t d_word = cfg.concat_mode == ConcatMode::same_width ? d - d_pos : d;
        const std::size_t w = d_word + d_pos;
        r.concatenated.width = w;
        r.concatenated.x.resize(n * w);
        concatenate_encoding(concat_words ? concat_words : embeddings, n, d, d_word, cfg.alpha, r.pe_concat.data(),
                             d_pos, r.concatenated.x.data());
        if (cfg.heads > 0) {
            // Projections mix the blocks: the parts as n×w matrices, x with the other block zeroed.
            r.work.word_part.assign(n * w, 0.0f);
            r.work.position_part.assign(n * w, 0.0f);
            for (std::size_t p = 0; p < n; ++p) {
                const float* row = r.concatenated.x.data() + p * w;
                std::copy(row, row + d_word, r.work.word_part.data() + p * w);
                std::copy(row + d_word, row + w, r.work.position_part.data() + p * w + d_word);
            }
        }
        // Widened without a basis, the word block is αE itself (the same float multiply).
        const bool shares_content = cfg.concat_mode == ConcatMode::widened && concat_words == nullptr;
        run_scheme(cfg, Scheme::concatenated, r.work.word_part.data(), r.work.position_part.data(), r.concatenated, r,
                   shares_content);
    }

    if (has(set, Scheme::learned)) {
        // x = αE + L, L the seeded learned-style table. Row p does not depend on n, so the table
        // is kept between calls and regenerated only when d changes or n grows past it.
        if (r.cache.table_d != d || r.cache.table.size() < n * d) {
            r.cache.table.resize(n * d);
            learned_table(kLearnedSeed, n, d, r.cache.table.data());
            r.cache.table_d = d;
        }
        r.learned.width = d;
        r.learned.x.resize(n * d);
        add_encoding(embeddings, cfg.alpha, r.cache.table.data(), n * d, r.learned.x.data());
        run_scheme(cfg, Scheme::learned, r.work.content.data(), r.cache.table.data(), r.learned, r);
    }
}

// additive PE(k)·PE(0)/√d; concatenated PE_{d_pos}(k)·PE_{d_pos}(0)/√w; learned L(k)·L(0)/√d.
POSENC_COLD void absolute_curve(const CurveConfig& cfg, Scheme scheme, float* out) {
    const std::size_t d = cfg.d, K = cfg.max_distance, row = K + 1;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    if (scheme == Scheme::learned) {
        std::vector<float> table(row * d);
        learned_table(kLearnedSeed, row, d, table.data());
        for (std::size_t k = 0; k < row; ++k) {
            double sum = 0.0;
            for (std::size_t j = 0; j < d; ++j) sum += static_cast<double>(table[k * d + j]) * table[j];
            out[k] = static_cast<float>(sum * inv_sqrt_d);
        }
        return;
    }
    const bool concatenated = scheme == Scheme::concatenated;
    const std::size_t dims = concatenated ? cfg.d_pos : d;
    const std::size_t w = concatenated && cfg.concat_mode == ConcatMode::widened ? d + cfg.d_pos : d;
    std::vector<double> omega(dims / 2);
    rope_frequencies(dims, cfg.base, RopeScalingConfig{}, omega.data());
    cosine_sum_curve(omega, nullptr, 1.0, concatenated ? 1.0 / std::sqrt(static_cast<double>(w)) : inv_sqrt_d, K, out);
}

}  // namespace posenc::detail
