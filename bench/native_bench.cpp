// Native benchmarks (Google Benchmark, Debian's libbenchmark-dev) of the same kernels and data as
// the wasm harness. Built twice by CMake (option POSENC_BENCH):
//   posenc_bench_native       — the whole core at POSENC_SSE_LEVEL (sse4.1), all kernels;
//   posenc_bench_native_avx2  — attention.cpp alone with -mavx2 -mfma (8-lane xsimd batches,
//                               contraction allowed), POSENC_BENCH_ATTENTION_ONLY: the attention
//                               kernels only.
// Names are kernel/n/d; scripts/bench runs them with repetitions and reads the medians.
#include <benchmark/benchmark.h>

#include <ctime>
#include <cmath>
#include <cstdint>
#include <vector>

#include "attention/attention.hpp"

#if !POSENC_BENCH_ATTENTION_ONLY
#include <fstream>
#include <iterator>

#include "kernels.hpp"
#include "vectors/vectors.hpp"
#endif

namespace {

const int kNs[] = {16, 64, 256, 512, 1024, 4096};
const int kDs[] = {64, 100, 128};

// Effective core clock: a chain of dependent 64-bit imuls by a register the compiler cannot see
// through retires one per 3 cycles (imul r64, r64 latency on Intel since Nehalem and AMD since
// Zen), so three times the chain's rate is the clock (turbo and the hypervisor included). The old
// probe, a chain of `add reg, imm`, is folded at rename by newer Intel cores and read 19 GHz on a
// 2.6 GHz Xeon; a multiply is never folded. bench/report.mjs checks the result against
// /proc/cpuinfo and uses it only to express the measured SIMD peak per cycle.
void clock_ghz(benchmark::State& state) {
    double ghz = 0.0;
    for (auto _ : state) {
        std::uint64_t x = 3, factor = 1;
        asm volatile("" : "+r"(factor));  // opaque: not known to be 1
        const std::uint64_t iterations = 60'000'000;
        timespec t0{}, t1{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        for (std::uint64_t i = 0; i < iterations; i += 8) {
#if defined(__x86_64__)
            asm volatile(
                "imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"
                "imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0"
                : "+r"(x)
                : "r"(factor));
#endif
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        // CPU time, not wall time: other processes share the two cores.
        const double seconds = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        benchmark::DoNotOptimize(x);
        ghz = 3.0 * iterations / seconds / 1e9;
    }
    state.counters["GHz"] = ghz;
}
BENCHMARK(clock_ghz)->Iterations(3)->Unit(benchmark::kMillisecond);

#if POSENC_BENCH_ATTENTION_ONLY
std::vector<float> values(std::size_t count, std::uint64_t seed) {
    std::vector<float> out(count);
    std::uint64_t s = seed;
    for (float& v : out) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v = static_cast<float>(static_cast<double>(s >> 40) * 0x1p-23 - 1.0);
    }
    return out;
}

void attention_kernel(benchmark::State& state, int kernel) {
    const std::size_t n = state.range(0), d = state.range(1);
    const auto q = values(n * d, 1), k = values(n * d, 2), v = values(n * d, 3);
    std::vector<float> scores(n * n), weights(n * n), output(n * d);
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    posenc::attention_scores(q.data(), k.data(), n, n, d, scale, false, scores.data());
    for (auto _ : state) {
        switch (kernel) {
            case 2: posenc::attention_scores(q.data(), k.data(), n, n, d, scale, false, weights.data()); break;
            case 3: posenc::softmax_rows(scores.data(), n, n, false, weights.data()); break;
            case 4: posenc::weighted_sum(scores.data(), v.data(), n, n, d, false, output.data()); break;
            default:
                posenc::attention(q.data(), k.data(), v.data(), n, d, scale, false, weights.data(), output.data());
        }
        benchmark::ClobberMemory();
    }
}

void register_all() {
    const char* names[] = {"scores", "softmax", "weighted_sum", "attention"};
    for (int kernel = 2; kernel <= 5; ++kernel) {
        for (int n : kNs) {
            for (int d : kDs) {
                if (kernel != 5 && n > 1024) continue;
                benchmark::RegisterBenchmark(names[kernel - 2], attention_kernel, kernel)
                    ->Args({n, d})
                    ->Unit(benchmark::kMicrosecond);
            }
        }
    }
}
#else
posenc::VectorSet g_glove;
bool g_has_glove = false;
posenc::bench::Case g_case;
int g_n = -1, g_d = -1;

void kernel_case(benchmark::State& state, int kernel) {
    const int n = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
    if (n != g_n || d != g_d) {
        g_case.setup(n, d, g_has_glove ? &g_glove : nullptr);
        g_n = n;
        g_d = d;
    }
    g_case.run(kernel);  // warm caches (identity, full recompute)
    for (auto _ : state) benchmark::DoNotOptimize(g_case.run(kernel));
}

// Which (kernel, n, d) cells run; the wasm harness applies the same rule (bench/grid.mjs).
bool in_grid(int kernel, int n, int d) {
    using namespace posenc::bench;
    switch (kernel) {
        case kScores: case kSoftmax: case kWeightedSum: case kDecomposition: return n <= 1024;
        case kAttentionCausal: return n == 512 || n == 4096;
        case kIdentity: return n <= 1024;
        case kIdentityBrute: return n <= 64;
        case kFullKeystroke: case kFullCold: return d == 100 && n <= 512;
        case kTrain: return n == 64 && d == 64;
        default: return true;
    }
}

void register_all() {
    for (int kernel = 0; kernel < posenc::bench::kKernelCount; ++kernel) {
        for (int d : kDs) {
            for (int n : kNs) {
                if (!in_grid(kernel, n, d)) continue;
                benchmark::RegisterBenchmark(posenc::bench::kKernelNames[kernel], kernel_case, kernel)
                    ->Args({n, d})
                    ->Unit(benchmark::kMicrosecond);
            }
        }
    }
}
#endif

}  // namespace

int main(int argc, char** argv) {
#if !POSENC_BENCH_ATTENTION_ONLY
    // The GloVe file, when present (data/glove-6b-100d-20k.i8), supplies the d = 100 vocabulary.
    std::ifstream file(POSENC_GLOVE_FILE, std::ios::binary);
    if (file) {
        std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        g_has_glove = posenc::parse_packed_vectors(bytes.data(), bytes.size(), g_glove) == nullptr;
    }
#endif
    register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
