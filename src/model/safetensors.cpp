#include "model/safetensors.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "base/names.hpp"
#include "model/json.hpp"

namespace posenc::model {

// ---- binary16 -----------------------------------------------------------------------------

std::uint16_t to_f16(float value) {
    std::uint32_t x = 0;
    std::memcpy(&x, &value, 4);
    const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t abs = x & 0x7FFFFFFFu;
    if (abs > 0x7F800000u) return sign | 0x7E00u;    // NaN (quiet)
    if (abs >= 0x477FF000u) return sign | 0x7C00u;   // ≥ 65520 rounds (ties to even) past 65504
    const std::uint32_t exponent = abs >> 23;
    if (abs >= 0x38800000u) {                        // normal half: 2^-14 ≤ |value|
        std::uint32_t h = ((exponent - 112) << 10) | ((abs & 0x7FFFFFu) >> 13);
        const std::uint32_t rest = abs & 0x1FFFu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;  // a carry may reach the exponent: correct
        return static_cast<std::uint16_t>(sign | h);
    }
    if (exponent < 102) return sign;                 // below 2^-25 (or a float subnormal): rounds to 0
    // Subnormal half: value = m·2^(exponent−150), in units of 2^-24 that is m >> (126 − exponent).
    const std::uint32_t m = (abs & 0x7FFFFFu) | 0x800000u;
    const std::uint32_t shift = 126 - exponent;      // 14 … 24
    std::uint32_t q = m >> shift;
    const std::uint32_t rest = m & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (q & 1))) ++q;
    return static_cast<std::uint16_t>(sign | q);
}

float from_f16(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    const std::uint32_t mantissa = bits & 0x3FFu;
    std::uint32_t x = 0;
    if (exponent == 0) {
        const float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // exact: m·2^-24
        std::memcpy(&x, &magnitude, 4);
        x |= sign;
    } else if (exponent == 31) {
        x = sign | 0x7F800000u | (mantissa << 13);
    } else {
        x = sign | ((exponent + 112) << 23) | (mantissa << 13);
    }
    float value = 0;
    std::memcpy(&value, &x, 4);
    return value;
}

namespace {

std::string fail(const std::string& message) { return "weights file: " + message; }

// ---- config JSON ------------------------------------------------------------------------------

std::string format_number(double v, int digits) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}

// Integers beyond 2^31 would not survive size_t on wasm32; validate() holds the real ranges.
constexpr std::uint64_t kMaxConfigInteger = (std::uint64_t{1} << 31) - 1;

std::string read_integer(const JsonValue& v, const std::string& key, std::uint64_t max, std::uint64_t& out) {
    if (json_to_uint(v, out) && out <= max) return {};
    return key + (max == UINT64_MAX ? " must be a non-negative integer below 2^64"
                                    : " must be a non-negative integer below 2^31");
}

std::string read_size(const JsonValue& v, const std::string& key, std::size_t& out) {
    std::uint64_t value = 0;
    std::string error = read_integer(v, key, kMaxConfigInteger, value);
    out = static_cast<std::size_t>(value);
    return error;
}

std::string read_int(const JsonValue& v, const std::string& key, int& out) {
    std::uint64_t value = 0;
    std::string error = read_integer(v, key, kMaxConfigInteger, value);
    out = static_cast<int>(value);
    return error;
}

std::string read_config_member(const std::string& key, const JsonValue& v, ModelConfig& cfg) {
    if (key == "scheme") {
        if (v.kind != JsonValue::Kind::string || !trainable_scheme_from_name(v.text, cfg.scheme))
            return trainable_scheme_message();
        return {};
    }
    if (key == "pairing") {
        if (v.kind == JsonValue::Kind::string && enum_from_name(kLayoutNames, v.text, cfg.pairing)) return "";
        return either_of("pairing", kLayoutNames);
    }
    if (key == "wordPca") {
        if (v.kind != JsonValue::Kind::string || !enum_from_name(kWordPcaNames, v.text, cfg.word_pca))
            return "wordPca must be 'centred' or 'uncentred'";
        return {};
    }
    if (key == "base" || key == "alpha" || key == "positionScale") {
        double value = 0;
        if (!json_to_double(v, value)) return key + " must be a number";
        if (key == "base") return cfg.base = value, "";
        // Out-of-range doubles become ±inf rather than an undefined float conversion.
        (key == "alpha" ? cfg.alpha : cfg.position_scale) =
            std::abs(value) <= FLT_MAX ? static_cast<float>(value) : (value > 0 ? 1 : -1) * HUGE_VALF;
        return {};
    }
    if (key == "frozenEmbedding") {
        if (v.kind != JsonValue::Kind::boolean) return "frozenEmbedding must be true or false";
        return cfg.frozen_embedding = v.boolean, "";
    }
    if (key == "vocab") return read_size(v, key, cfg.vocab);
    if (key == "d") return read_size(v, key, cfg.d);
    if (key == "layers") return read_size(v, key, cfg.layers);
    if (key == "heads") return read_size(v, key, cfg.heads);
    if (key == "context") return read_size(v, key, cfg.context);
    if (key == "dPos") return read_size(v, key, cfg.d_pos);
    if (key == "t5Buckets") return read_int(v, key, cfg.t5_buckets);
    if (key == "t5MaxDistance") return read_int(v, key, cfg.t5_max_distance);
    if (key == "seed") return read_integer(v, key, UINT64_MAX, cfg.seed);
    return "config has an unknown key \"" + key + "\"";
}

}  // namespace

std::string config_to_json(const ModelConfig& given) {
    const ModelConfig cfg = settled(given);  // the file states every derived number
    const char* scheme = trainable_scheme_name(cfg.scheme);
    std::string json = "{\"scheme\":\"" + std::string(scheme ? scheme : "") + "\"";
    json += ",\"vocab\":" + std::to_string(cfg.vocab);
    json += ",\"d\":" + std::to_string(cfg.d);
    json += ",\"layers\":" + std::to_string(cfg.layers);
    json += ",\"heads\":" + std::to_string(cfg.heads);
    json += ",\"context\":" + std::to_string(cfg.context);
    json += ",\"dPos\":" + std::to_string(cfg.d_pos);
    json += ",\"base\":" + format_number(cfg.base, 17);     // 17 digits: the same double back
    json += std::string(",\"pairing\":\"") + kLayoutNames[static_cast<unsigned>(cfg.pairing)] + "\"";
    json += ",\"alpha\":" + format_number(cfg.alpha, 9);    // 9 digits: the same float back
    // Only when not the default: a default model's header has neither key (the shipped files
    // and their --check rely on those bytes).
    if (cfg.position_scale != 1.0f) json += ",\"positionScale\":" + format_number(cfg.position_scale, 9);
    if (cfg.word_pca != WordPca::centred) json += std::string(",\"wordPca\":\"") + kWordPcaNames[static_cast<int>(cfg.word_pca)] + "\"";
    json += ",\"t5Buckets\":" + std::to_string(cfg.t5_buckets);
    json += ",\"t5MaxDistance\":" + std::to_string(cfg.t5_max_distance);
    json += ",\"seed\":" + std::to_string(cfg.seed);
    json += std::string(",\"frozenEmbedding\":") + (cfg.frozen_embedding ? "true" : "false") + "}";
    return json;
}

std::string config_from_json(std::string_view json, ModelConfig& out) {
    JsonValue root;
    if (std::string error = parse_json(json, root); !error.empty()) return "config is not valid JSON: " + error;
    if (root.kind != JsonValue::Kind::object) return "config must be a JSON object";
    for (const char* required : {"scheme", "vocab"})
        if (!root.find(required)) return std::string("config has no ") + required;
    ModelConfig cfg;
    for (const auto& [key, value] : root.members)
        if (std::string error = read_config_member(key, value, cfg); !error.empty()) return error;
    if (const char* error = validate(cfg)) return error;
    out = settled(cfg);
    return {};
}

// ---- writing --------------------------------------------------------------------------------

namespace {

// The low `bytes` bytes of v, little-endian.
void put_le(std::uint8_t* out, std::uint64_t v, int bytes) {
    for (int k = 0; k < bytes; ++k) out[k] = static_cast<std::uint8_t>(v >> (8 * k));
}

std::string tensor_entry(const TensorSpec& spec, WeightsDtype dtype, std::size_t& data_bytes) {
    const std::size_t bytes = spec.size() * (dtype == WeightsDtype::f16 ? 2 : 4);
    std::string entry;
    append_json_string(entry, spec.name);
    entry += std::string(":{\"dtype\":\"") + (dtype == WeightsDtype::f16 ? "F16" : "F32") + "\",\"shape\":[";
    entry += std::to_string(spec.rows);
    if (spec.cols != 0) entry += "," + std::to_string(spec.cols);
    entry += "],\"data_offsets\":[" + std::to_string(data_bytes) + "," + std::to_string(data_bytes + bytes) + "]}";
    data_bytes += bytes;
    return entry;
}

std::string vocab_json(const std::vector<std::string>& vocab) {
    std::string json = "[";
    for (std::size_t i = 0; i < vocab.size(); ++i) {
        if (i) json += ',';
        append_json_string(json, vocab[i]);
    }
    return json + "]";
}

}  // namespace

std::string write_weights(const ModelConfig& cfg, const float* params, std::size_t count,
                          const std::vector<std::string>* vocab, WeightsDtype dtype,
                          std::vector<std::uint8_t>& out) {
    if (const char* error = validate(cfg)) return error;
    if (count != parameter_count(cfg) || (count != 0 && params == nullptr))
        return "params must hold " + std::to_string(parameter_count(cfg)) + " floats";
    if (vocab && vocab->size() != cfg.vocab)
        return "vocabulary has " + std::to_string(vocab->size()) + " tokens, expected vocab = " + std::to_string(cfg.vocab);
    if (vocab)
        for (std::size_t i = 0; i < vocab->size(); ++i)
            if (first_invalid_utf8((*vocab)[i]) != (*vocab)[i].size())
                return "vocabulary token " + std::to_string(i) + " is not valid UTF-8";

    std::string header = "{\"__metadata__\":{\"posenc\":";
    append_json_string(header, config_to_json(cfg));
    if (vocab) {
        header += ",\"vocab\":";
        append_json_string(header, vocab_json(*vocab));
    }
    header += "}";
    std::size_t data_bytes = 0;
    for (const TensorSpec& spec : parameter_specs(cfg)) header += "," + tensor_entry(spec, dtype, data_bytes);
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');  // the data section starts 8-byte aligned

    out.assign(8 + header.size() + data_bytes, 0);
    put_le(out.data(), header.size(), 8);
    std::memcpy(out.data() + 8, header.data(), header.size());
    std::uint8_t* data = out.data() + 8 + header.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (dtype == WeightsDtype::f16) {
            put_le(data + 2 * i, to_f16(params[i]), 2);
        } else {
            std::uint32_t bits = 0;
            std::memcpy(&bits, &params[i], 4);
            put_le(data + 4 * i, bits, 4);
        }
    }
    return {};
}

// ---- reading --------------------------------------------------------------------------------

namespace {

struct TensorPlacement {
    std::size_t spec = 0;        // index into parameter_specs
    bool f16 = false;
    std::uint64_t begin = 0, end = 0;
};

std::string shape_text(const std::vector<std::uint64_t>& dims) {
    std::string text = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
    return text + "]";
}

std::string read_metadata(const JsonValue& root, LoadedWeights& out) {
    const JsonValue* meta = root.find("__metadata__");
    if (!meta) return "__metadata__ is missing (not a PosEnc Lab weights file?)";
    if (meta->kind != JsonValue::Kind::object) return "__metadata__ is not an object";
    for (const auto& member : meta->members)
        if (member.second.kind != JsonValue::Kind::string)
            return "__metadata__." + member.first + " is not a string";
    const JsonValue* posenc = meta->find("posenc");
    if (!posenc) return "__metadata__.posenc (the model's config) is missing";
    if (std::string error = config_from_json(posenc->text, out.config); !error.empty()) return "config: " + error;
    const JsonValue* vocab = meta->find("vocab");
    out.has_vocab = vocab != nullptr;
    if (!vocab) return {};
    JsonValue tokens;
    if (std::string error = parse_json(vocab->text, tokens); !error.empty()) return "vocab is not valid JSON: " + error;
    if (tokens.kind != JsonValue::Kind::array) return "vocab is not a JSON array";
    if (tokens.items.size() != out.config.vocab)
        return "vocab has " + std::to_string(tokens.items.size()) + " tokens, expected " +
               std::to_string(out.config.vocab) + " (the config's vocab)";
    for (const JsonValue& token : tokens.items)
        if (token.kind != JsonValue::Kind::string) return "vocab holds a value that is not a string";
    out.vocab.clear();
    for (JsonValue& token : tokens.items) out.vocab.push_back(std::move(token.text));
    return {};
}

std::string read_tensor(const std::string& name, const JsonValue& v, const TensorSpec& spec, TensorPlacement& out) {
    if (v.kind != JsonValue::Kind::object) return "tensor " + name + " is not an object";
    for (const auto& member : v.members)
        if (member.first != "dtype" && member.first != "shape" && member.first != "data_offsets")
            return "tensor " + name + " has an unknown key \"" + member.first + "\"";
    const JsonValue* dtype = v.find("dtype");
    const JsonValue* shape = v.find("shape");
    const JsonValue* offsets = v.find("data_offsets");
    if (!dtype || !shape || !offsets) return "tensor " + name + " needs dtype, shape and data_offsets";
    if (dtype->kind != JsonValue::Kind::string || (dtype->text != "F32" && dtype->text != "F16"))
        return "tensor " + name + " has dtype " + (dtype->kind == JsonValue::Kind::string ? dtype->text : "(not a string)") +
               "; only F32 and F16 are read";
    out.f16 = dtype->text == "F16";
    std::vector<std::uint64_t> dims(shape->items.size());
    bool integers = shape->kind == JsonValue::Kind::array;
    for (std::size_t i = 0; integers && i < dims.size(); ++i) integers = json_to_uint(shape->items[i], dims[i]);
    if (!integers) return "tensor " + name + " has a shape that is not a list of integers";
    std::vector<std::uint64_t> expected{spec.rows};
    if (spec.cols != 0) expected.push_back(spec.cols);
    if (dims != expected)
        return "tensor " + name + " has shape " + shape_text(dims) + ", expected " + shape_text(expected);
    if (offsets->kind != JsonValue::Kind::array || offsets->items.size() != 2 ||
        !json_to_uint(offsets->items[0], out.begin) || !json_to_uint(offsets->items[1], out.end))
        return "tensor " + name + " has data_offsets that are not two integers";
    const std::uint64_t bytes = std::uint64_t{spec.size()} * (out.f16 ? 2 : 4);
    if (out.end < out.begin || out.end - out.begin != bytes)
        return "tensor " + name + " has data_offsets " + shape_text({out.begin, out.end}) + " spanning " +
               (out.end < out.begin ? std::string("a negative range") : std::to_string(out.end - out.begin) + " bytes") +
               ", expected " + std::to_string(bytes);
    return {};
}

std::string read_tensors(const JsonValue& root, const std::vector<TensorSpec>& specs, std::uint64_t data_size,
                         std::vector<TensorPlacement>& placements, bool allow_missing_wte, bool& wte_missing) {
    std::vector<bool> seen(specs.size(), false);
    for (const auto& member : root.members) {
        const std::string& name = member.first;
        const JsonValue& value = member.second;
        if (name == "__metadata__") continue;
        const auto it = std::find_if(specs.begin(), specs.end(), [&](const TensorSpec& s) { return s.name == name; });
        if (it == specs.end()) return "unexpected tensor " + name + " (not in this config's layout)";
        TensorPlacement placement;
        placement.spec = static_cast<std::size_t>(it - specs.begin());
        if (std::string error = read_tensor(name, value, *it, placement); !error.empty()) return error;
        if (placement.end > data_size)
            return "tensor " + name + " has data_offsets " + shape_text({placement.begin, placement.end}) +
                   " past the data section's " + std::to_string(data_size) + " bytes (truncated file?)";
        seen[placement.spec] = true;
        placements.push_back(placement);
    }
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (seen[i]) continue;
        if (!(allow_missing_wte && specs[i].name == "wte.weight")) return "tensor " + specs[i].name + " is missing";
        wte_missing = true;
    }
    return {};
}

// The tensors must tile [0, data_size) exactly: sorted by begin, each starts where the last ended.
std::string check_tiling(std::vector<TensorPlacement> sorted, const std::vector<TensorSpec>& specs,
                         std::uint64_t data_size) {
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    std::uint64_t covered = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        const std::string& name = specs[sorted[i].spec].name;
        if (sorted[i].begin < covered)
            return "tensors " + specs[sorted[i - 1].spec].name + " and " + name + " overlap in the data section";
        if (sorted[i].begin > covered)
            return "the data section has a gap of " + std::to_string(sorted[i].begin - covered) + " bytes before tensor " + name;
        covered = sorted[i].end;
    }
    if (covered != data_size)
        return "the tensors cover " + std::to_string(covered) + " bytes of a " + std::to_string(data_size) +
               "-byte data section";
    return {};
}

void copy_values(const std::uint8_t* data, const TensorPlacement& p, const TensorSpec& spec, float* params) {
    const std::uint8_t* src = data + p.begin;
    float* dst = params + spec.offset;
    for (std::size_t i = 0; i < spec.size(); ++i) {
        if (p.f16) {
            dst[i] = from_f16(static_cast<std::uint16_t>(src[2 * i] | (src[2 * i + 1] << 8)));
        } else {
            const std::uint32_t bits = std::uint32_t{src[4 * i]} | (std::uint32_t{src[4 * i + 1]} << 8) |
                                       (std::uint32_t{src[4 * i + 2]} << 16) | (std::uint32_t{src[4 * i + 3]} << 24);
            std::memcpy(&dst[i], &bits, 4);
        }
    }
}

std::string read_header_length(const std::uint8_t* bytes, std::size_t size, std::uint64_t& n) {
    if (bytes == nullptr || size < 8)
        return "has " + std::to_string(size) + " bytes, fewer than the 8 of the header length";
    n = 0;
    for (int k = 7; k >= 0; --k) n = (n << 8) | bytes[k];
    if (n < 2) return "header length " + std::to_string(n) + " is below 2";
    if (n > kMaxHeaderBytes) return "header length " + std::to_string(n) + " exceeds " + std::to_string(kMaxHeaderBytes);
    if (n > size - 8)
        return "header length " + std::to_string(n) + " exceeds the " + std::to_string(size - 8) +
               " bytes after it (truncated file?)";
    return {};
}

}  // namespace

std::string read_weights(const std::uint8_t* bytes, std::size_t size, LoadedWeights& out, bool allow_missing_wte) {
    std::uint64_t n = 0;
    if (std::string error = read_header_length(bytes, size, n); !error.empty()) return fail(error);
    const std::string_view header(reinterpret_cast<const char*>(bytes + 8), static_cast<std::size_t>(n));
    if (header[0] != '{') return fail("header does not start with '{'");
    JsonValue root;
    if (std::string error = parse_json(header, root); !error.empty()) return fail("header: " + error);
    if (root.kind != JsonValue::Kind::object) return fail("header is not a JSON object");

    LoadedWeights loaded;
    if (std::string error = read_metadata(root, loaded); !error.empty()) return fail(error);
    const std::vector<TensorSpec> specs = parameter_specs(loaded.config);
    const std::uint64_t data_size = size - 8 - n;
    std::vector<TensorPlacement> placements;
    const bool wte_optional = allow_missing_wte && loaded.config.frozen_embedding && loaded.has_vocab;
    if (std::string error = read_tensors(root, specs, data_size, placements, wte_optional, loaded.wte_missing); !error.empty())
        return fail(error);
    if (placements.empty()) return fail("has no tensors");
    if (std::string error = check_tiling(placements, specs, data_size); !error.empty()) return fail(error);

    // Allocated only now: the tensors tile the file's real data section, so this is ≤ size floats.
    loaded.params.resize(parameter_count(loaded.config));
    for (const TensorPlacement& p : placements) copy_values(bytes + 8 + n, p, specs[p.spec], loaded.params.data());
    loaded.f16 = placements.front().f16;
    out = std::move(loaded);
    return {};
}

}  // namespace posenc::model
