// model/safetensors.hpp and model/json.hpp: the weights file of docs/ARCHITECTURE.md round-trips bit for
// bit, opens in an independent (naive) reader, and hostile files are refused with the message
// that names what is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/json.hpp"
#include "model/safetensors.hpp"
#include "model_test_support.hpp"
#include "test_support.hpp"

namespace {
using posenc::Layout;
using posenc::Scheme;
using namespace posenc::model;
using Catch::Matchers::Contains;

ModelConfig small(Scheme scheme, Layout pairing = Layout::interleaved) {
    ModelConfig cfg = posenc::test::small_model_config(scheme);
    cfg.pairing = pairing;
    cfg.base = 500000.25;  // not a round number: the config JSON must carry every bit
    cfg.alpha = 0.3f;
    cfg.seed = 0xFEDCBA9876543210ull;
    if (scheme == Scheme::t5) cfg.t5_buckets = 8, cfg.t5_max_distance = 20;
    return cfg;
}

std::vector<ModelConfig> every_layout() {
    std::vector<ModelConfig> all;
    for (Scheme s : posenc::test::kTrainableSchemeList) all.push_back(small(s));
    all.push_back(small(Scheme::rotary, Layout::half));
    return all;
}

std::vector<std::string> tokens_for(std::size_t v) {
    std::vector<std::string> tokens;
    const char* special[] = {"\"", "\\", "\n", "é", "—", "\xF0\x9F\x90\x8B", "\x01"};  // escapes, multi-byte, control
    for (std::size_t i = 0; i < v; ++i) tokens.push_back(i < 7 ? special[i] : std::string(1, char('a' + i)));
    return tokens;
}

std::vector<std::uint8_t> write_ok(const ModelConfig& cfg, const std::vector<float>& params,
                                   const std::vector<std::string>* vocab = nullptr,
                                   WeightsDtype dtype = WeightsDtype::f32) {
    std::vector<std::uint8_t> file;
    const std::string error = write_weights(cfg, params.data(), params.size(), vocab, dtype, file);
    REQUIRE(error == "");
    return file;
}

std::string read_error(const std::vector<std::uint8_t>& file, std::size_t size) {
    LoadedWeights loaded;
    return read_weights(file.data(), size, loaded);
}
std::string read_error(const std::vector<std::uint8_t>& file) { return read_error(file, file.size()); }

std::uint64_t header_length(const std::vector<std::uint8_t>& file) {
    std::uint64_t n = 0;
    for (int k = 7; k >= 0; --k) n = (n << 8) | file[k];
    return n;
}
std::string header_of(const std::vector<std::uint8_t>& file) {
    return std::string(file.begin() + 8, file.begin() + 8 + static_cast<std::ptrdiff_t>(header_length(file)));
}
// The same data section behind another header (its length recomputed).
std::vector<std::uint8_t> with_header(const std::vector<std::uint8_t>& file, const std::string& header,
                                      std::size_t extra_data = 0) {
    std::vector<std::uint8_t> out;
    for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(std::uint64_t{header.size()} >> (8 * k)));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), file.begin() + 8 + static_cast<std::ptrdiff_t>(header_length(file)), file.end());
    out.resize(out.size() + extra_data, 0);
    return out;
}
std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}
std::string entry_of(const std::string& header, const std::string& name) {
    const std::size_t begin = header.find("\"" + name + "\":{");
    REQUIRE(begin != std::string::npos);
    return header.substr(begin, header.find('}', begin) + 1 - begin);
}

// A deliberately naive second reader: finds each expected tensor's entry by plain text search,
// parses its numbers with sscanf and compares the bytes it points at with the parameters.
void naive_check(const std::vector<std::uint8_t>& file, const ModelConfig& cfg, const std::vector<float>& params) {
    const std::uint64_t n = header_length(file);
    REQUIRE(8 + n <= file.size());
    CHECK((8 + n) % 8 == 0);
    const std::string header = header_of(file);
    CHECK(header.front() == '{');
    CHECK(header.find_last_not_of(' ') == header.find_last_of('}'));
    CHECK(header.find("\"__metadata__\":{\"posenc\":\"{\\\"scheme\\\":") != std::string::npos);
    std::size_t total = 0;
    for (const TensorSpec& spec : parameter_specs(cfg)) {
        const std::string entry = entry_of(header, spec.name);
        unsigned long rows = 0, cols = 0, begin = 0, end = 0;
        char dtype[4] = {};
        const std::string pattern = "\"" + spec.name + "\":{\"dtype\":\"%3[A-Z0-9]\",\"shape\":[%lu";
        REQUIRE(std::sscanf(entry.c_str(), pattern.c_str(), dtype, &rows) == 2);
        CHECK(std::string(dtype) == "F32");
        CHECK(rows == spec.rows);
        const std::size_t shape_end = entry.find(']');
        if (spec.cols) CHECK(std::sscanf(entry.c_str() + entry.find(',', entry.find("shape")), ",%lu", &cols) == 1);
        CHECK(cols == spec.cols);
        REQUIRE(std::sscanf(entry.c_str() + shape_end, "],\"data_offsets\":[%lu,%lu]", &begin, &end) == 2);
        CHECK(begin == total);
        CHECK(end - begin == 4 * spec.size());
        total = end;
        CHECK(std::memcmp(file.data() + 8 + n + begin, params.data() + spec.offset, 4 * spec.size()) == 0);
    }
    CHECK(8 + n + total == file.size());
}

}  // namespace

TEST_CASE("weights file: write → read is bit-identical for every scheme's layout", "[model][safetensors]") {
    for (const ModelConfig& cfg : every_layout()) {
        CAPTURE(config_to_json(cfg));
        std::vector<float> params = posenc::test::random_values(parameter_count(cfg), 1234 + cfg.d_pos);
        params[0] = -0.0f;  // signed zero and a subnormal survive too
        params[1] = 1e-40f;
        const std::vector<std::string> vocab = tokens_for(cfg.vocab);
        for (const bool with_vocab : {false, true}) {
            const auto file = write_ok(cfg, params, with_vocab ? &vocab : nullptr);
            LoadedWeights loaded;
            REQUIRE(read_weights(file.data(), file.size(), loaded) == "");
            CHECK(config_to_json(loaded.config) == config_to_json(cfg));
            CHECK(loaded.config.base == cfg.base);
            CHECK(loaded.config.alpha == cfg.alpha);
            CHECK(loaded.config.seed == cfg.seed);
            REQUIRE(loaded.params.size() == params.size());
            CHECK(std::memcmp(loaded.params.data(), params.data(), 4 * params.size()) == 0);
            CHECK(loaded.has_vocab == with_vocab);
            if (with_vocab) CHECK(loaded.vocab == vocab);
            naive_check(file, cfg, params);
        }
    }
}

TEST_CASE("weights file: the header lists the tensors in parameter_specs order", "[model][safetensors]") {
    const ModelConfig cfg = small(Scheme::t5);
    const auto file = write_ok(cfg, std::vector<float>(parameter_count(cfg), 0.5f));
    const std::string header = header_of(file);
    std::size_t last = 0;
    for (const TensorSpec& spec : parameter_specs(cfg)) {
        const std::size_t at = header.find("\"" + spec.name + "\":{");
        REQUIRE(at != std::string::npos);
        CHECK(at > last);
        last = at;
    }
}

TEST_CASE("binary16: every half value round-trips; others round to the nearest, ties to even", "[model][safetensors]") {
    for (std::uint32_t bits = 0; bits < 65536; ++bits) {
        const float value = from_f16(static_cast<std::uint16_t>(bits));
        if (std::isnan(value)) {
            CHECK(std::isnan(from_f16(to_f16(value))));
            CHECK((bits & 0x7C00u) == 0x7C00u);
        } else if (to_f16(value) != bits) {
            FAIL("half " << bits << " → " << value << " → " << to_f16(value));
        }
    }
    CHECK(from_f16(0x3C00) == 1.0f);
    CHECK(from_f16(0x0001) == std::ldexp(1.0f, -24));
    CHECK(to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);       // tie → even mantissa 0
    CHECK(to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);   // tie → even mantissa 2
    CHECK(to_f16(65519.0f) == 0x7BFF);                           // below the tie: max half 65504
    CHECK(to_f16(65520.0f) == 0x7C00);                           // the tie rounds to even: infinity
    CHECK(to_f16(-1e9f) == 0xFC00);
    CHECK(to_f16(std::ldexp(1.0f, -25)) == 0x0000);              // subnormal tie → 0 (even)
    CHECK(to_f16(3 * std::ldexp(1.0f, -25)) == 0x0002);          // subnormal tie → 2 (even)
    CHECK(to_f16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -30)) == 0x0400);  // rounds up into the normals
    CHECK(to_f16(-0.0f) == 0x8000);
    CHECK(to_f16(1e-30f) == 0x0000);
    // Property: the result is a nearest half (no neighbour is strictly closer).
    const auto values = posenc::test::random_values(20000, 77, 70000.0f);
    for (float raw : values) {
        for (const float x : {raw, raw * 1e-5f, raw * 1e-9f}) {
            const std::uint16_t h = to_f16(x);
            if ((h & 0x7FFF) >= 0x7C00) continue;  // beyond the largest half: ±inf, checked above
            const double err = std::fabs(double(from_f16(h)) - x);
            for (const int step : {-1, 1}) {
                const std::uint16_t neighbour = static_cast<std::uint16_t>(h + step);
                const float nv = from_f16(neighbour);
                if ((neighbour & 0x7FFF) >= 0x7C00 || (neighbour ^ h) & 0x8000) continue;
                CHECK(std::fabs(double(nv) - x) >= err);
            }
        }
    }
}

TEST_CASE("weights file: F16 output reads back as the rounded values", "[model][safetensors]") {
    const ModelConfig cfg = small(Scheme::rotary);
    const auto params = posenc::test::random_values(parameter_count(cfg), 99, 3.0f);
    const auto file = write_ok(cfg, params, nullptr, WeightsDtype::f16);
    CHECK(header_of(file).find("\"F16\"") != std::string::npos);
    CHECK(header_of(file).find("\"F32\"") == std::string::npos);
    LoadedWeights loaded;
    REQUIRE(read_weights(file.data(), file.size(), loaded) == "");
    for (std::size_t i = 0; i < params.size(); ++i)
        if (loaded.params[i] != from_f16(to_f16(params[i]))) FAIL("parameter " << i);
}

TEST_CASE("weights file: write refuses a bad config, count or vocabulary", "[model][safetensors]") {
    ModelConfig cfg = small(Scheme::alibi);
    std::vector<float> params(parameter_count(cfg));
    std::vector<std::uint8_t> file;
    CHECK_THAT(write_weights(cfg, params.data(), params.size() - 1, nullptr, WeightsDtype::f32, file),
               Contains("params must hold"));
    std::vector<std::string> vocab = tokens_for(cfg.vocab - 1);
    CHECK_THAT(write_weights(cfg, params.data(), params.size(), &vocab, WeightsDtype::f32, file),
               Contains("vocabulary has 10 tokens, expected vocab = 11"));
    vocab.push_back("\xC3");
    CHECK_THAT(write_weights(cfg, params.data(), params.size(), &vocab, WeightsDtype::f32, file),
               Contains("vocabulary token 10 is not valid UTF-8"));
    cfg.heads = 3;
    CHECK(write_weights(cfg, params.data(), params.size(), nullptr, WeightsDtype::f32, file) == validate(cfg));
}

TEST_CASE("weights file: truncated at every byte it is refused", "[model][safetensors]") {
    ModelConfig cfg;
    cfg.scheme = Scheme::nope;
    cfg.vocab = 2, cfg.d = 2, cfg.layers = 1, cfg.heads = 1, cfg.context = 1;
    const auto params = posenc::test::random_values(parameter_count(cfg), 5);
    const auto file = write_ok(cfg, params);
    const std::size_t data_start = 8 + header_length(file);
    for (std::size_t size = 0; size < file.size(); ++size) {
        const std::string error = read_error(file, size);
        CAPTURE(size, error);
        if (size < 8) CHECK_THAT(error, Contains("fewer than the 8 of the header length"));
        else if (size < data_start) CHECK_THAT(error, Contains("(truncated file?)") && Contains("header length"));
        else CHECK_THAT(error, Contains("past the data section") && Contains("(truncated file?)"));
    }
    CHECK(read_error(file) == "");
}

TEST_CASE("weights file: hostile header lengths", "[model][safetensors]") {
    const ModelConfig cfg = small(Scheme::nope);
    const auto good = write_ok(cfg, std::vector<float>(parameter_count(cfg), 1.0f));
    auto set_length = [&](std::uint64_t n) {
        auto file = good;
        for (int k = 0; k < 8; ++k) file[k] = static_cast<std::uint8_t>(n >> (8 * k));
        return read_error(file);
    };
    CHECK(set_length(0) == "weights file: header length 0 is below 2");
    CHECK(set_length(1) == "weights file: header length 1 is below 2");
    CHECK(set_length(~std::uint64_t{0}) == "weights file: header length 18446744073709551615 exceeds 100000000");
    CHECK(set_length(100000001) == "weights file: header length 100000001 exceeds 100000000");
    const std::uint64_t n = header_length(good);
    CHECK_THAT(set_length(good.size() - 7), Contains("exceeds the") && Contains("truncated"));
    CHECK_THAT(set_length(n - 1), Contains("the tensors cover"));  // a padding space joins the data
    CHECK_THAT(set_length(n + 1), Contains("header:"));      // a data byte joins the JSON
    // Readers must not require the writer's padding: an odd, unpadded header is fine.
    std::string unpadded = header_of(good);
    unpadded.erase(unpadded.find_last_not_of(' ') + 1);
    unpadded += " ";
    if (unpadded.size() % 2 == 0) unpadded += " ";
    CHECK(read_error(with_header(good, unpadded)) == "");
}

TEST_CASE("weights file: hostile tensors entries", "[model][safetensors]") {
    const ModelConfig cfg = small(Scheme::learned);
    const auto good = write_ok(cfg, posenc::test::random_values(parameter_count(cfg), 8));
    const std::string header = header_of(good);
    auto with = [&](const std::string& h, std::size_t extra = 0) { return read_error(with_header(good, h, extra)); };
    const std::string wte = entry_of(header, "wte.weight");
    const std::string lnf_bias = entry_of(header, "ln_f.bias");

    CHECK(with(replaced(header, "\"F32\"", "\"F64\"")) == "weights file: tensor wte.weight has dtype F64; only F32 and F16 are read");
    CHECK(with(replaced(header, "\"F32\"", "\"I32\"")) == "weights file: tensor wte.weight has dtype I32; only F32 and F16 are read");
    CHECK(with(replaced(header, "\"shape\":[11,8]", "\"shape\":[11,7]")) ==
          "weights file: tensor wte.weight has shape [11, 7], expected [11, 8]");
    CHECK(with(replaced(header, "\"shape\":[11,8]", "\"shape\":[88]")) ==
          "weights file: tensor wte.weight has shape [88], expected [11, 8]");
    CHECK(with(replaced(header, "\"shape\":[11,8]", "\"shape\":[11,8,1]")) ==
          "weights file: tensor wte.weight has shape [11, 8, 1], expected [11, 8]");
    CHECK(with(replaced(header, "\"shape\":[11,8]", "\"shape\":[11,-8]")) ==
          "weights file: tensor wte.weight has a shape that is not a list of integers");
    CHECK(with(replaced(header, "," + lnf_bias, "")) == "weights file: tensor ln_f.bias is missing");
    CHECK(with(replaced(header, "\"wpe.weight\":", "\"wpx.weight\":")) ==
          "weights file: unexpected tensor wpx.weight (not in this config's layout)");
    CHECK(with(replaced(header, "," + lnf_bias, "," + lnf_bias + "," + lnf_bias)) ==
          "weights file: header: duplicate key \"ln_f.bias\" in an object ending at byte " +
              std::to_string(header.find_last_of('}') + 1 + lnf_bias.size() + 1));
    CHECK(with(replaced(header, "\"dtype\":\"F32\",", "\"dtype\":\"F32\",\"x\":1,")) ==
          "weights file: tensor wte.weight has an unknown key \"x\"");
    CHECK(with(replaced(header, "\"dtype\":\"F32\",", "")) ==
          "weights file: tensor wte.weight needs dtype, shape and data_offsets");
    CHECK(with(replaced(header, "\"data_offsets\":[0,352]", "\"data_offsets\":[0,348]")) ==
          "weights file: tensor wte.weight has data_offsets [0, 348] spanning 348 bytes, expected 352");
    CHECK(with(replaced(header, "\"data_offsets\":[0,352]", "\"data_offsets\":[352,0]")) ==
          "weights file: tensor wte.weight has data_offsets [352, 0] spanning a negative range, expected 352");
    CHECK(with(replaced(header, "\"data_offsets\":[0,352]", "\"data_offsets\":[0,352,4]")) ==
          "weights file: tensor wte.weight has data_offsets that are not two integers");

    // Offsets: wpe.weight follows wte at 352; moving it by 4 overlaps wte, shifting the last
    // tensor leaves a gap, and spare bytes at the end are not covered.
    const std::string wpe = entry_of(header, "wpe.weight");
    CHECK(wpe.find("[352,512]") != std::string::npos);
    CHECK(with(replaced(header, "[352,512]", "[348,508]")) ==
          "weights file: tensors wte.weight and wpe.weight overlap in the data section");
    const std::string head = entry_of(header, "lm_head.weight");
    const std::size_t head_begin = good.size() - 8 - header.size() - 4 * 88;
    const std::string offsets = "[" + std::to_string(head_begin) + "," + std::to_string(head_begin + 352) + "]";
    const std::string shifted = "[" + std::to_string(head_begin + 4) + "," + std::to_string(head_begin + 356) + "]";
    CHECK(with(replaced(header, offsets, shifted), 4) ==
          "weights file: the data section has a gap of 4 bytes before tensor lm_head.weight");
    CHECK(with(replaced(header, offsets, shifted)) ==
          "weights file: tensor lm_head.weight has data_offsets " + replaced(replaced(shifted, ",", ", "), "", "") +
              " past the data section's " + std::to_string(head_begin + 352) + " bytes (truncated file?)");
    CHECK(with(header, 4) == "weights file: the tensors cover " + std::to_string(head_begin + 352) + " bytes of a " +
                                 std::to_string(head_begin + 356) + "-byte data section");
    CHECK(with(header) == "");
}

TEST_CASE("weights file: hostile metadata and config", "[model][safetensors]") {
    const ModelConfig cfg = small(Scheme::rotary);
    const std::vector<std::string> vocab = tokens_for(cfg.vocab);
    const auto good = write_ok(cfg, std::vector<float>(parameter_count(cfg), 0.25f), &vocab);
    const std::string header = header_of(good);
    auto with = [&](const std::string& h) { return read_error(with_header(good, h)); };

    CHECK(with(replaced(header, "\"__metadata__\"", "\"__metadatum\"")) ==
          "weights file: __metadata__ is missing (not a PosEnc Lab weights file?)");
    CHECK(with(replaced(header, "{\"posenc\":", "{\"posenx\":")) ==
          "weights file: __metadata__.posenc (the model's config) is missing");
    CHECK(with(replaced(header, "{\"posenc\":", "{\"format\":1,\"posenc\":")) ==
          "weights file: __metadata__.format is not a string");
    CHECK(with(replaced(header, "{\"posenc\":", "{\"format\":\"pt\",\"posenc\":")) == "");  // other writers' keys
    CHECK(with(replaced(header, "\\\"vocab\\\":11", "\\\"vocab\\\":1000000000")) ==
          "weights file: config: vocab must be an integer from 2 to 65536");
    CHECK(with(replaced(header, "\\\"vocab\\\":11", "\\\"vocab\\\":99999999999")) ==
          "weights file: config: vocab must be a non-negative integer below 2^31");
    CHECK(with(replaced(header, "\\\"heads\\\":2", "\\\"heads\\\":3")) == "weights file: config: heads must divide d");
    CHECK(with(replaced(header, "\\\"rotary\\\"", "\\\"xpos\\\"")) ==
          "weights file: config: scheme must be one of additive, concatenated, rotary, learned, alibi, nope, t5");
    CHECK(with(replaced(header, "\\\"seed\\\":", "\\\"seeds\\\":")) == "weights file: config: config has an unknown key \"seeds\"");
    CHECK(with(replaced(header, "\\\"base\\\":500000.25", "\\\"base\\\":1e999")) ==
          "weights file: config: base must be a number above 1 and at most 1e12");
    CHECK(with(replaced(header, "\\\"alpha\\\":0.300000012", "\\\"alpha\\\":1e300")) ==
          "weights file: config: alpha must be a number above 0 and at most 1e6");
    CHECK_THAT(with(replaced(header, "{\\\"scheme\\\"", "[\\\"scheme\\\"")), Contains("weights file: config: config is not valid JSON"));
    CHECK(with(replaced(header, "\"vocab\":\"[", "\"vocab\":\"[\\\"extra\\\",")) ==
          "weights file: vocab has 12 tokens, expected 11 (the config's vocab)");
    CHECK(with(replaced(header, "\"vocab\":\"[", "\"vocab\":\"[1,")) ==
          "weights file: vocab has 12 tokens, expected 11 (the config's vocab)");
    CHECK_THAT(with(replaced(header, "\"vocab\":\"[", "\"vocab\":\"{")), Contains("weights file: vocab is not valid JSON"));
}

TEST_CASE("weights file: malformed JSON, duplicate keys and bad UTF-8", "[model][safetensors]") {
    const ModelConfig cfg = small(Scheme::alibi);
    const auto good = write_ok(cfg, std::vector<float>(parameter_count(cfg), 0.0f));
    const std::string header = header_of(good);
    auto with = [&](const std::string& h) { return read_error(with_header(good, h)); };
    CHECK(with("[]") == "weights file: header does not start with '{'");
    CHECK(with("{}") == "weights file: __metadata__ is missing (not a PosEnc Lab weights file?)");
    CHECK(with("{\"__metadata__\":[]}") == "weights file: __metadata__ is not an object");
    CHECK_THAT(with(replaced(header, "\"dtype\":", "\"dtype\" ")), Contains("weights file: header: expected ':' at byte"));
    CHECK_THAT(with(header + "x"), Contains("unexpected text after the value"));
    CHECK_THAT(with(replaced(header, "{\"posenc\":", "{\"posenc\":\"a\",\"posenc\":")),
               Contains("header: duplicate key \"posenc\""));
    CHECK(with(replaced(header, "\"wte.weight\"", "\"wte.w\xFF\"")) == "weights file: header: invalid UTF-8 at byte " +
                                                                        std::to_string(header.find("wte.weight") + 5));
    CHECK_THAT(with(replaced(header, "\"wte.weight\"", "\"wte.w\xC0\xAE\"")), Contains("invalid UTF-8"));       // overlong
    CHECK_THAT(with(replaced(header, "\"wte.weight\"", "\"wte.w\xED\xA0\x80\"")), Contains("invalid UTF-8"));   // surrogate
    CHECK_THAT(with(replaced(header, "\"wte.weight\"", "\"wte.w\\ud800\"")), Contains("lone high surrogate"));
    CHECK_THAT(with(replaced(header, "\"wte.weight\"", "\"wte.w\x01\"")), Contains("control character in a string"));
    CHECK(with(replaced(header, "\"wte.weight\"", "\"\\u0077te.weight\"")) == "");  // escapes decode to the same name
}

TEST_CASE("json: strict grammar, bounded depth and exact integers", "[model][safetensors]") {
    JsonValue v;
    CHECK(parse_json(" {\"a\":[1,-2.5e+3,true,false,null,\"\\u00e9\\ud83d\\udc0b\\n\"]} ", v) == "");
    REQUIRE(v.find("a") != nullptr);
    CHECK(v.find("a")->items[5].text == "é\xF0\x9F\x90\x8B\n");
    std::uint64_t u = 0;
    REQUIRE(parse_json("18446744073709551615", v) == "");
    CHECK((json_to_uint(v, u) && u == ~std::uint64_t{0}));
    REQUIRE(parse_json("18446744073709551616", v) == "");
    CHECK_FALSE(json_to_uint(v, u));
    REQUIRE(parse_json("1e2", v) == "");
    CHECK_FALSE(json_to_uint(v, u));
    for (const char* bad : {"01", "1.", ".5", "-", "+1", "1e", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "tru", "\"abc",
                            "\"\\x\"", "\"\\u12\"", "\"\\udc00\"", "[] []", "", "NaN", "Infinity"}) {
        CAPTURE(bad);
        CHECK(parse_json(bad, v) != "");
    }
    // Objects and arrays share one list grammar; each names itself, and the byte, when it breaks.
    CHECK(parse_json("{\"a\":1", v) == "unexpected end of text in an object at byte 6");
    CHECK(parse_json("[1, 2", v) == "unexpected end of text in an array at byte 5");
    CHECK(parse_json("{\"a\":1 2}", v) == "expected ',' or '}' at byte 7");
    CHECK(parse_json("[1 2]", v) == "expected ',' or ']' at byte 3");
    CHECK(parse_json("{ }", v) == "");
    CHECK(parse_json("[ ]", v) == "");
    CHECK(parse_json("{\"a\":1,\"a\":2}", v) == "duplicate key \"a\" in an object ending at byte 13");
    CHECK(parse_json(std::string(32, '[') + std::string(32, ']'), v) == "");
    CHECK_THAT(parse_json(std::string(33, '[') + std::string(33, ']'), v), Contains("nesting deeper than 32"));
    std::string many = "[";
    for (std::size_t i = 0; i < kMaxJsonValues; ++i) many += "0,";
    many.back() = ']';
    CHECK_THAT(parse_json(many, v), Contains("more than 262144 values"));
}

TEST_CASE("config JSON: round trip and messages naming the key", "[model][safetensors]") {
    for (const ModelConfig& cfg : every_layout()) {
        ModelConfig back;
        REQUIRE(config_from_json(config_to_json(cfg), back) == "");
        CHECK(config_to_json(back) == config_to_json(cfg));
    }
    ModelConfig cfg;
    CHECK(config_to_json(small(Scheme::concatenated)) ==
          "{\"scheme\":\"concatenated\",\"vocab\":11,\"d\":8,\"layers\":2,\"heads\":2,\"context\":5,\"dPos\":2,"
          "\"base\":500000.25,\"pairing\":\"interleaved\",\"alpha\":0.300000012,\"t5Buckets\":32,"
          "\"t5MaxDistance\":128,\"seed\":18364758544493064720,\"frozenEmbedding\":false}");
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11}", cfg) == "");
    CHECK((cfg.d == 64 && cfg.layers == 2 && cfg.heads == 4 && cfg.context == 64));  // ModelConfig's defaults
    CHECK(config_from_json("{\"vocab\":11}", cfg) == "config has no scheme");
    CHECK(config_from_json("{\"scheme\":\"rotary\"}", cfg) == "config has no vocab");
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11,\"pairing\":\"both\"}", cfg) ==
          "pairing must be 'interleaved' or 'half'");
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11,\"d\":-64}", cfg) == "d must be a non-negative integer below 2^31");
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11,\"layers\":1.5}", cfg) ==
          "layers must be a non-negative integer below 2^31");
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11,\"base\":\"1e4\"}", cfg) == "base must be a number");
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11,\"seed\":-1}", cfg) ==
          "seed must be a non-negative integer below 2^64");
    CHECK(config_from_json("{\"scheme\":\"t5\",\"vocab\":11,\"t5Buckets\":5}", cfg) ==
          "t5Buckets must be an even integer from 4 to 256");
    CHECK(config_from_json("{\"scheme\":\"concatenated\",\"vocab\":11,\"dPos\":4294967294}", cfg) ==
          "dPos must be a non-negative integer below 2^31");
    CHECK(config_from_json("{\"scheme\":\"concatenated\",\"vocab\":11,\"d\":8,\"dPos\":2147483646}", cfg) ==
          "dPos must be an even integer from 2 to d − 2 for the concatenated scheme");
    CHECK(config_from_json("[]", cfg) == "config must be a JSON object");
}
