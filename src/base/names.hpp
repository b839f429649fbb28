// An enum's JS names, written once in enum order beside the enum (RopeScaling, SyntheticKind):
// the bindings map a name to the enum with these, the JS API receives the list from the core,
// and a wrong name gets one message naming the argument, the allowed names and the value.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace posenc {

// Names in enum order: names[i] is the name of Enum(i).
template <class Enum, std::size_t N>
bool enum_from_name(const char* const (&names)[N], std::string_view name, Enum& out) {
    for (std::size_t i = 0; i < N; ++i)
        if (name == names[i]) return out = static_cast<Enum>(i), true;
    return false;
}

// "<argument> must be one of 'a', 'b' (got 'c')", the JS API's checkEnum wording.
template <std::size_t N>
std::string one_of(const char* argument, const char* const (&names)[N], std::string_view got) {
    std::string m = std::string(argument) + " must be one of ";
    for (std::size_t i = 0; i < N; ++i) m += (i ? ", '" : "'") + std::string(names[i]) + "'";
    return m + " (got '" + std::string(got) + "')";
}

// "<argument> must be 'a' or 'b'" ('a', 'b' or 'c' for three), for an enum that crosses as its
// index into names (the JS API maps the name with the core's own list).
template <std::size_t N>
std::string either_of(const char* argument, const char* const (&names)[N]) {
    std::string m = std::string(argument) + " must be ";
    for (std::size_t i = 0; i < N; ++i) m += (i == 0 ? "'" : i + 1 == N ? " or '" : ", '") + std::string(names[i]) + "'";
    return m;
}

// A whole number in full, for a limit a message spells out: 1e6 → "1000000", -32768. Digit by
// digit, without printf, which the element's cores (a byte budget) do not otherwise link; not
// inlined into its callers (inlined, it and number_text cost the core 1.9 KB of wasm).
[[gnu::noinline]] inline std::string whole_text(double v) {
    std::string text;
    for (auto n = static_cast<unsigned long long>(std::fabs(v)); text.empty() || n; n /= 10)
        text.insert(text.begin(), static_cast<char>('0' + n % 10));
    return v < 0 ? "-" + text : text;
}

// A limit as an error message writes it: 4096, 0.5, 1e9 (a power of ten from 1e6 up); for
// non-negative limits below 1e15 with at most 6 decimals.
[[gnu::noinline]] inline std::string number_text(double v) {
    if (v >= 1e6) {
        double p = 1.0;
        int e = 0;
        while (p < v && e < 22) p *= 10.0, ++e;  // powers of ten are exact up to 1e22
        if (p == v) return "1e" + number_text(e);
    }
    const double whole = std::floor(v);
    const std::string text = whole_text(whole);
    auto micro = static_cast<unsigned long long>(std::llround((v - whole) * 1e6));
    if (micro == 0) return text;
    std::string fraction(6, '0');
    for (int i = 5; i >= 0; --i, micro /= 10) fraction[static_cast<std::size_t>(i)] = static_cast<char>('0' + micro % 10);
    return text + "." + fraction.substr(0, fraction.find_last_not_of('0') + 1);
}

// A power of two as messages write it: 1 << 26 → "2^26" (v a power of two).
inline std::string power_of_two_text(unsigned long long v) {
    unsigned e = 0;
    while (e < 63 && (1ull << e) < v) ++e;
    return "2^" + number_text(e);
}

// A float default as the decimal it was written as (1e-3f → "0.001", not 0.0010000000474974513):
// the shortest text that reads back as the same float.
inline std::string float_text(float v) {
    char text[32];
    for (int digits = 1; digits <= 9; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(v));
        if (std::strtof(text, nullptr) == v) break;
    }
    return text;
}

}  // namespace posenc
