// The wasm benchmark module: the kernels of bench/kernels.hpp behind plain C exports, so the
// harness (bench/wasm-harness.mjs, the same file in Node and in Chromium) times batches of calls
// without embind or JS-side copies in the way. Built twice: SIMD and scalar core.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "kernels.hpp"
#include "vectors/vectors.hpp"

namespace {
posenc::bench::Case g_case;
posenc::VectorSet g_glove;
bool g_has_glove = false;
}  // namespace

extern "C" {
// bytes: heap address of a PELVEC01 file (glove-6b-100d-20k.i8). Returns 0 on success.
EMSCRIPTEN_KEEPALIVE int bench_load_vectors(const std::uint8_t* bytes, std::size_t size) {
    g_has_glove = posenc::parse_packed_vectors(bytes, size, g_glove) == nullptr;
    return g_has_glove ? 0 : 1;
}
EMSCRIPTEN_KEEPALIVE void bench_setup(int n, int d) { g_case.setup(n, d, g_has_glove ? &g_glove : nullptr); }
EMSCRIPTEN_KEEPALIVE double bench_run(int kernel) { return g_case.run(kernel); }
EMSCRIPTEN_KEEPALIVE float* bench_buffer(int id) { return g_case.buffer(id); }
EMSCRIPTEN_KEEPALIVE const float* bench_unit_vocab() { return g_case.unit_vocab(); }
EMSCRIPTEN_KEEPALIVE int bench_vocab_rows() { return static_cast<int>(g_case.vocab_rows()); }
EMSCRIPTEN_KEEPALIVE int bench_simd() { return POSENC_SIMD; }
}
