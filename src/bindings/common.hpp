// What the binding files share: heap addresses as pointers and heap views of the core's arrays.
// Only the files in src/bindings/ include Emscripten headers.
//
// Arrays cross the boundary as heap addresses owned by the JS API module (web/posenc.mjs),
// which validates types and lengths first; every entry re-checks sizes and values against
// limits.hpp and returns "" on success or the error message, which JS raises as a RangeError.
// Nothing here throws or aborts, so a bad call never takes the instance down.
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attention/products.hpp"
#include "base/names.hpp"
#include "compare/compare.hpp"
#include "encodings/phases.hpp"
#include "encodings/scheme_table.hpp"

namespace posenc::bindings {

inline float* heap(std::uintptr_t address) { return reinterpret_cast<float*>(address); }

// Finite inputs can still overflow float32 inside a kernel (α·E or q·kᵀ·scale beyond ~3.4e38);
// the result is then checked (posenc::all_finite; softmax weights by posenc::softmax_rows_finite)
// rather than handed back full of NaN.
using posenc::all_finite;

// The enums that cross as indices into the core's names (kLayoutNames, kConcatModeNames, which
// the JS API maps names with): nullptr when value is one, else the message naming the argument.
template <std::size_t N>
inline bool indexes(int value, const char* const (&)[N]) { return value >= 0 && static_cast<std::size_t>(value) < N; }

inline const char* check_layout(int value) {
    static const std::string message = posenc::either_of("layout", posenc::kLayoutNames);
    return indexes(value, posenc::kLayoutNames) ? nullptr : message.c_str();
}

inline const char* check_pairing(int value) {
    static const std::string message = posenc::either_of("pairing", posenc::kLayoutNames);
    return indexes(value, posenc::kLayoutNames) ? nullptr : message.c_str();
}

inline const char* check_concat(int value) {
    static const std::string message = posenc::either_of("concat", posenc::kConcatModeNames);
    return indexes(value, posenc::kConcatModeNames) ? nullptr : message.c_str();
}

// An enum's names (enum order) as a JS array.
template <std::size_t N>
emscripten::val name_list(const char* const (&names)[N]) {
    emscripten::val list = emscripten::val::array();
    for (const char* name : names) list.call<void>("push", std::string(name));
    return list;
}

inline emscripten::val token_array(const std::vector<std::string>& tokens) {
    emscripten::val array = emscripten::val::array();
    for (const std::string& token : tokens) array.call<void>("push", token);
    return array;
}

template <typename T>
emscripten::val memory_view(const std::vector<T>& v) {
    return emscripten::val(emscripten::typed_memory_view(v.size(), v.data()));
}

// The scheme parameters as the JS API passes them: an array of numbers in kParamTable's order.
inline posenc::ParamValues param_values(const emscripten::val& values) {
    posenc::ParamValues v{};
    for (unsigned i = 0; i < posenc::kParamCount; ++i) v.v[i] = values[i].as<double>();
    return v;
}

}  // namespace posenc::bindings
