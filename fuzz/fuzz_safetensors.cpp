// libFuzzer target: posenc::model::read_weights (the safetensors weights file, docs/ARCHITECTURE.md, "Weights file") on
// arbitrary bytes. Invariants: it never crashes, and whatever it accepts writes back (F32, with
// its vocabulary) into a file that reads back to the same config, bits and vocabulary.
//
// The first input byte chooses how the rest is read: odd → the bytes are the file; even → a
// valid file is written for a small config drawn from the next bytes (parameters from the input
// too), must read back exactly, and is then damaged by (position, byte) pairs from the rest and
// read again, so that most inputs get past the JSON and exercise the tensor and offset checks.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/safetensors.hpp"

namespace {
using namespace posenc::model;

#define FUZZ_CHECK(cond)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            std::fprintf(stderr, "fuzz_safetensors: invariant failed: %s (line %d)\n", #cond, \
                         __LINE__);                                                           \
            std::abort();                                                                     \
        }                                                                                     \
    } while (0)

constexpr posenc::Scheme kSchemes[] = {posenc::Scheme::nope,   posenc::Scheme::additive, posenc::Scheme::learned,
                                       posenc::Scheme::concatenated, posenc::Scheme::rotary,
                                       posenc::Scheme::alibi,  posenc::Scheme::t5};

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), 4 * a.size()) == 0);
}

// Accepted → rewritten as F32 → read again: the same config, bits and vocabulary.
void check_round_trip(const LoadedWeights& loaded) {
    std::vector<std::uint8_t> again;
    FUZZ_CHECK(write_weights(loaded.config, loaded.params.data(), loaded.params.size(),
                             loaded.has_vocab ? &loaded.vocab : nullptr, WeightsDtype::f32, again) == "");
    LoadedWeights back;
    FUZZ_CHECK(read_weights(again.data(), again.size(), back) == "");
    FUZZ_CHECK(config_to_json(back.config) == config_to_json(loaded.config));
    FUZZ_CHECK(same_bits(back.params, loaded.params));
    FUZZ_CHECK(back.has_vocab == loaded.has_vocab && back.vocab == loaded.vocab);
}

void read_any(const std::uint8_t* bytes, std::size_t size) {
    LoadedWeights loaded;
    const std::string error = read_weights(bytes, size, loaded);
    if (error.empty()) check_round_trip(loaded);
    else FUZZ_CHECK(error.rfind("weights file: ", 0) == 0);
}

void assembled(const std::uint8_t* data, std::size_t size) {
    std::size_t at = 0;
    const auto next = [&]() -> std::uint8_t { return at < size ? data[at++] : 0; };
    ModelConfig cfg;
    cfg.scheme = kSchemes[next() % 7];
    cfg.vocab = 2 + next() % 6;
    cfg.heads = 1 + next() % 2;
    cfg.d = cfg.heads * 2 * (1 + next() % 3);
    if (cfg.scheme == posenc::Scheme::concatenated) cfg.d = cfg.heads * 4, cfg.d_pos = 2;
    cfg.layers = 1;
    cfg.context = 1 + next() % 4;
    cfg.pairing = next() & 1 ? posenc::Layout::half : posenc::Layout::interleaved;
    const std::uint8_t flags = next();
    std::vector<float> params(parameter_count(cfg));
    // One input byte per parameter (k/16, k a signed byte) keeps bytes for the damage below.
    for (float& p : params) p = static_cast<float>(static_cast<std::int8_t>(next())) * 0.0625f;
    std::vector<std::string> vocab;
    for (std::size_t i = 0; i < cfg.vocab; ++i) vocab.push_back(std::string(i % 3, 'a') + char('A' + i));
    const WeightsDtype dtype = flags & 2 ? WeightsDtype::f16 : WeightsDtype::f32;
    std::vector<std::uint8_t> file;
    FUZZ_CHECK(write_weights(cfg, params.data(), params.size(), flags & 1 ? &vocab : nullptr, dtype, file) == "");
    LoadedWeights loaded;
    FUZZ_CHECK(read_weights(file.data(), file.size(), loaded) == "");
    for (float& p : params) p = dtype == WeightsDtype::f16 ? from_f16(to_f16(p)) : p;
    FUZZ_CHECK(same_bits(loaded.params, params));
    // Damage: (position, byte) pairs, positions drawn from two bytes; flag bit 2 truncates.
    while (at + 3 <= size) {
        const std::size_t position = (std::size_t{next()} | std::size_t{next()} << 8) % file.size();
        file[position] = next();
    }
    if (flags & 4) file.resize(file.size() * (flags >> 3) / 32);
    read_any(file.data(), file.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    if (data[0] & 1) read_any(data + 1, size - 1);
    else assembled(data + 1, size - 1);
    return 0;
}
