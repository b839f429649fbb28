// The only file that knows about Emscripten: thin embind wrappers over the core.
//
// Arrays cross the boundary as heap addresses owned by the JS API module (web/posenc.mjs),
// which validates types and lengths first; every entry here re-checks sizes and values against
// limits.hpp and returns "" on success or the error message, which JS raises as a RangeError.
// Nothing here throws or aborts, so a bad call never takes the instance down.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "attention.hpp"
#include "compare.hpp"
#include "embedding.hpp"
#include "limits.hpp"
#include "rotary.hpp"
#include "sinusoidal.hpp"

namespace {

using posenc::Layout;
namespace limits = posenc::limits;

float* heap(std::uintptr_t address) { return reinterpret_cast<float*>(address); }

const char* check_layout(int layout, const char* name_error) {
    return (layout == 0 || layout == 1) ? nullptr : name_error;
}

std::string sinusoidal(std::uintptr_t out, std::size_t n, std::size_t d, double base, int layout) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    if (const char* e = check_layout(layout, "layout must be 'interleaved' or 'half'")) return e;
    posenc::sinusoidal_table(n, d, base, static_cast<Layout>(layout), heap(out));
    return {};
}

std::string rotate(std::uintptr_t x, std::uintptr_t out, std::size_t n, std::size_t d, double base,
                   double offset, int pairing) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    if (const char* e = limits::check_offset(offset)) return e;
    if (const char* e = check_layout(pairing, "pairing must be 'interleaved' or 'half'")) return e;
    posenc::rotate(heap(x), n, d, base, offset, static_cast<Layout>(pairing), heap(out));
    return {};
}

std::string attention(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::size_t n, std::size_t d,
                      double scale, bool causal, std::uintptr_t weights, std::uintptr_t output) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxAttentionRows, false)) return e;
    if (const char* e = limits::check_scale(scale)) return e;
    posenc::attention(heap(q), heap(k), heap(v), n, d, static_cast<float>(scale), causal, heap(weights),
                      heap(output));
    return {};
}

emscripten::val tokenize(const std::string& text) {
    emscripten::val tokens = emscripten::val::array();
    for (const std::string& token : posenc::tokenize(text)) tokens.call<void>("push", token);
    return tokens;
}

std::string synthetic_embedding(const std::string& token, std::uintptr_t out, std::size_t d) {
    if (d < 1 || d > limits::kMaxDim) return "d must be between 1 and 4096";
    posenc::synthetic_embedding(posenc::hash_token(token), d, heap(out));
    return {};
}

// Holds one compare() result between calls so its buffers are reused, and hands JS views of them
// (valid until the next call that may grow the heap).
class Comparison {
public:
    std::string run(std::uintptr_t embeddings, std::size_t n, std::size_t d, double alpha, double base,
                    int layout, int pairing, std::size_t d_pos, int concat_mode, bool causal,
                    std::size_t heads, double head_seed, double scale) {
        if (const char* e = check_layout(layout, "layout must be 'interleaved' or 'half'")) return e;
        if (const char* e = check_layout(pairing, "pairing must be 'interleaved' or 'half'")) return e;
        if (concat_mode != 0 && concat_mode != 1) return "concat must be 'same-width' or 'widened'";
        if (!(head_seed >= 0 && head_seed <= 4294967295.0)) return "seed must be an integer from 0 to 2^32-1";
        posenc::CompareConfig cfg;
        cfg.n = n;
        cfg.d = d;
        cfg.alpha = static_cast<float>(alpha);
        cfg.base = base;
        cfg.layout = static_cast<Layout>(layout);
        cfg.pairing = static_cast<Layout>(pairing);
        cfg.d_pos = d_pos;
        cfg.concat_mode = static_cast<posenc::ConcatMode>(concat_mode);
        cfg.causal = causal;
        cfg.heads = heads;
        cfg.head_seed = static_cast<std::uint64_t>(head_seed);
        cfg.scale = static_cast<float>(scale);
        if (const char* e = posenc::validate(cfg)) return e;
        posenc::compare(cfg, heap(embeddings), result_);
        return {};
    }

    // scheme: 0 additive, 1 concatenated, 2 rotary; part: 0 x, 1 weights, 2 terms.
    emscripten::val view(int scheme, int part) const {
        const posenc::SchemeResult& s = scheme == 0 ? result_.additive : scheme == 1 ? result_.concatenated : result_.rotary;
        const std::vector<float>& v = part == 0 ? s.x : part == 1 ? s.weights : s.terms;
        return emscripten::val(emscripten::typed_memory_view(v.size(), v.data()));
    }
    emscripten::val pe(bool concatenated) const {
        const std::vector<float>& v = concatenated ? result_.pe_concat : result_.pe;
        return emscripten::val(emscripten::typed_memory_view(v.size(), v.data()));
    }
    std::size_t width(int scheme) const {
        return scheme == 0 ? result_.additive.width : scheme == 1 ? result_.concatenated.width : result_.rotary.width;
    }

private:
    posenc::CompareResult result_;
};

bool simd_build() { return POSENC_SIMD != 0; }
std::string version() { return POSENC_VERSION; }

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
    emscripten::function("sinusoidal", &sinusoidal);
    emscripten::function("rotate", &rotate);
    emscripten::function("attention", &attention);
    emscripten::function("tokenize", &tokenize);
    emscripten::function("syntheticEmbedding", &synthetic_embedding);
    emscripten::function("simdBuild", &simd_build);
    emscripten::function("version", &version);
    emscripten::class_<Comparison>("Comparison")
        .constructor<>()
        .function("run", &Comparison::run)
        .function("view", &Comparison::view)
        .function("pe", &Comparison::pe)
        .function("width", &Comparison::width);
}
