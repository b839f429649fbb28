// The weights file of docs/ARCHITECTURE.md ("Weights file"): safetensors, bytes in memory,
// no I/O. Layout written and required:
//   bytes [0, 8)        header length N, uint64 little-endian; 2 ≤ N ≤ kMaxHeaderBytes
//   bytes [8, 8 + N)    UTF-8 JSON object, padded with spaces so 8 + N is a multiple of 8:
//                       { "__metadata__": { "posenc": "<config JSON>", "vocab": "<JSON array>" },
//                         "<tensor>": { "dtype": "F32", "shape": [rows(, cols)],
//                                       "data_offsets": [begin, end] }, … }
//                       tensors in parameter_specs order; "vocab" only when token strings exist
//   bytes [8 + N, end)  the data section: each tensor's values, row-major, little-endian, at
//                       [begin, end) relative to the section's start; the tensors tile it exactly
// Config JSON (keys are the JS API's names; written in this order, all present but two):
//   {"scheme":"rotary","vocab":V,"d":…,"layers":…,"heads":…,"context":T,"dPos":…,"base":…,
//    "pairing":"interleaved"|"half","alpha":…,["positionScale":…,]["wordPca":"uncentred",]
//    "t5Buckets":…,"t5MaxDistance":…,"seed":…,"frozenEmbedding":false|true}
//   positionScale and wordPca only when not their defaults (1, "centred"): a default model's
//   header has neither key.
// Reading accepts F32 and F16 tensors (F16 widened exactly), tensors in any order in the header,
// and extra string entries in __metadata__ (other writers add e.g. "format": "pt").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/config.hpp"

namespace posenc::model {

inline constexpr std::uint64_t kMaxHeaderBytes = 100000000;

enum class WeightsDtype { f32, f16 };

// cfg as the config JSON above (cfg must be valid).
std::string config_to_json(const ModelConfig& cfg);
// "" and out filled when json is a config object that passes validate(); else a message naming
// the offending key. Required keys: scheme, vocab; the others default to ModelConfig's values.
std::string config_from_json(std::string_view json, ModelConfig& out);

// "" and out = the file when cfg is valid, params holds parameter_count(cfg) floats (parameter_specs
// order) and vocab (optional) holds exactly cfg.vocab valid UTF-8 strings; else a message.
// f16 rounds each value to the nearest half (ties to even; beyond ±65504 → ±inf).
std::string write_weights(const ModelConfig& cfg, const float* params, std::size_t count,
                          const std::vector<std::string>* vocab, WeightsDtype dtype,
                          std::vector<std::uint8_t>& out);

struct LoadedWeights {
    ModelConfig config;
    std::vector<float> params;       // parameter_count(config) floats, parameter_specs order
    std::vector<std::string> vocab;  // empty unless the file has __metadata__.vocab (then V strings)
    bool has_vocab = false;
    bool f16 = false;          // the file stores F16 values
    bool wte_missing = false;  // a frozen word model's file without wte (params' wte rows are 0)
};
// "" and out filled when bytes[0, size) is a valid weights file; else a message starting with
// "weights file: " that says what is wrong. Memory is allocated only in proportion to size.
// allow_missing_wte: a frozen-embedding model with a vocabulary may leave wte.weight out (the
// shipped models do: its rows are the word vectors', rebuilt by rebuild_frozen_rows).
std::string read_weights(const std::uint8_t* bytes, std::size_t size, LoadedWeights& out, bool allow_missing_wte = false);

// IEEE 754 binary16 ↔ binary32. to_f16 rounds to nearest, ties to even; NaN stays NaN.
std::uint16_t to_f16(float value);
float from_f16(std::uint16_t bits);

}  // namespace posenc::model
