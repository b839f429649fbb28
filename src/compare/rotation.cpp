// The schemes that rotate queries and keys: rotary, xPos (rotation and a decay), and RoPE
// extended by position interpolation, NTK-aware scaling and YaRN. x = αE is left alone.
#include <algorithm>
#include <cmath>
#include <vector>

#include "compare/lanes.hpp"
#include "encodings/rotary.hpp"

namespace posenc::detail {

// The RoPE scaling of a rope-family scheme, with the trained/evaluation lengths and YaRN's ramp.
RopeScalingConfig rope_config(Scheme scheme, const SchemeOptions& o) {
    RopeScalingConfig rope;
    rope.kind = scheme_info(scheme).rope_scaling;
    rope.trained_length = o.trained_length;
    rope.eval_length = o.eval_length;
    rope.alpha = o.yarn_alpha;
    rope.beta = o.yarn_beta;
    return rope;
}

// Rows [from, n) of q, k (n×d_head) rotated as the scheme wants into q_out, k_out (k_out null:
// the rotated keys are the rotated queries — W = I, every scheme but xPos, whose keys scale the
// other way); returns the logit scale it implies. Row p's rotation depends on x_p and p alone,
// so rotating from `from` with that offset gives the rows of a whole-matrix call bit for bit —
// except xPos's scaling (a running product from row 0), which callers rotate from 0.
POSENC_COLD float rotate_for(const CompareConfig& cfg, Scheme scheme, const SchemeResult& lane, const float* q,
                             const float* k, std::size_t d_head, float scale, std::size_t from, float* q_out,
                             float* k_out) {
    const std::size_t rows = cfg.n - from, at = from * d_head;
    const double offset = static_cast<double>(from);
    switch (scheme) {
        case Scheme::rotary:
            rotate(q + at, rows, d_head, cfg.base, offset, cfg.pairing, q_out + at);
            if (k_out) rotate(k + at, rows, d_head, cfg.base, offset, cfg.pairing, k_out + at);
            return scale;
        case Scheme::xpos: {
            const SchemeOptions& o = cfg.options;
            xpos_rotate(q, cfg.n, d_head, cfg.base, 0.0, cfg.pairing, o.xpos_gamma, o.xpos_scale_base, false, q_out);
            xpos_rotate(k, cfg.n, d_head, cfg.base, 0.0, cfg.pairing, o.xpos_gamma, o.xpos_scale_base, true, k_out);
            return scale;
        }
        default:
            rotate_with_frequencies(q + at, rows, d_head, lane.frequencies.data(), offset, cfg.pairing, q_out + at);
            if (k_out) rotate_with_frequencies(k + at, rows, d_head, lane.frequencies.data(), offset, cfg.pairing, k_out + at);
            // YaRN's factor on q and k, i.e. its square on the logits; exactly scale when it is 1.
            return lane.qk_factor == 1.0 ? scale
                                         : static_cast<float>(static_cast<double>(scale) * lane.qk_factor * lane.qk_factor);
    }
}

POSENC_COLD void run_rotation_lanes(const CompareConfig& cfg, CompareResult& r) {
    const std::size_t d = cfg.d;
    const SchemeSet set = cfg.schemes;

    const std::size_t head_count = std::max<std::size_t>(cfg.heads, 1);
    const std::size_t d_head = d / head_count;
    const SchemeOptions& o = cfg.options;
    for (const SchemeInfo& info : kSchemeTable) {
        const Scheme scheme = info.id;
        if (info.family != Family::rotation || !has(set, scheme)) continue;
        SchemeResult& lane = r.lane(scheme);
        set_content(lane, r, d);
        const RopeScalingConfig rope = rope_config(scheme, o);
        lane.frequencies.resize(d_head / 2);
        rope_frequencies(d_head, cfg.base, rope, lane.frequencies.data());
        lane.scale_factor = rope.kind == RopeScaling::none ? 1.0 : rope_scale_factor(rope);
        lane.qk_factor = rope.kind == RopeScaling::yarn ? yarn_qk_factor(lane.scale_factor) : 1.0;
        run_scheme(cfg, scheme, nullptr, nullptr, lane, r);
    }
}

// u·R(k·ω)·u/√d for the all-ones u = (2/√d)·Σ_i cos(k·ω_i) with the scheme's ω; xPos with
// ζ_i^(k/λ) inside the sum, YaRN times its qk factor².
POSENC_COLD void rotation_curve(const CurveConfig& cfg, Scheme scheme, float* out) {
    const std::size_t d = cfg.d;
    const SchemeOptions& o = cfg.options;
    const RopeScalingConfig rope = rope_config(scheme, o);
    std::vector<double> omega(d / 2);
    rope_frequencies(d, cfg.base, rope, omega.data());
    double factor = 2.0 * (1.0 / std::sqrt(static_cast<double>(d)));
    if (rope.kind == RopeScaling::yarn) {
        const double qk = yarn_qk_factor(rope_scale_factor(rope));
        factor *= qk * qk;
    }
    std::vector<double> zeta;
    if (scheme == Scheme::xpos) {
        zeta.resize(d / 2);
        xpos_zeta(d, o.xpos_gamma, zeta.data());
    }
    cosine_sum_curve(omega, zeta.empty() ? nullptr : zeta.data(), o.xpos_scale_base, factor, cfg.max_distance, out);
}

}  // namespace posenc::detail
