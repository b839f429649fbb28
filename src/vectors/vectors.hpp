// Word-vector sets: the packed GloVe file shipped in data/ (format in data/README.md), parsed from
// bytes the caller has already read — the core does no I/O.
//
// Shapes:
//   rows — count×dim row-major, dequantised (scale[i] · int8 value)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace posenc {

struct VectorSet {
    std::size_t count = 0, dim = 0;
    std::vector<std::string> words;                       // count, in file order (by frequency)
    std::unordered_map<std::string, std::uint32_t> index; // word → row
    std::vector<float> rows;                              // count×dim
    float component_rms = 0.0f;  // RMS of a component over the original vectors
    float mean_norm = 0.0f;      // mean L2 norm of the original vectors

    // Row of word, or −1 when the word is not in the set.
    std::int64_t find(std::string_view word) const;
};

// Parses a PELVEC01 file. Returns nullptr on success, else a message saying what is wrong with
// the bytes (truncated, bad magic, odd or zero dimension, duplicate or empty word, non-finite
// scale); out is then left empty.
const char* parse_packed_vectors(const std::uint8_t* bytes, std::size_t size, VectorSet& out);

}  // namespace posenc
