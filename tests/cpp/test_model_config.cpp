// model/config.hpp: the parameter layout of docs/ARCHITECTURE.md ("Weights file") and the config limits.
#include <catch2/catch.hpp>

#include <string>

#include "model/config.hpp"
#include "model_test_support.hpp"

namespace {
using posenc::Scheme;
using namespace posenc::model;
using Catch::Matchers::StartsWith;

std::string msg(const char* m) { return m ? m : "(valid)"; }

using posenc::test::small_model_config;
}  // namespace

TEST_CASE("parameter_specs: names, shapes and consecutive offsets", "[model][config]") {
    for (Scheme s : {Scheme::nope, Scheme::additive, Scheme::learned, Scheme::concatenated, Scheme::rotary,
                     Scheme::alibi, Scheme::t5}) {
        const ModelConfig cfg = small_model_config(s);
        REQUIRE(validate(cfg) == nullptr);
        const auto specs = parameter_specs(cfg);
        std::size_t offset = 0;
        for (const auto& spec : specs) {
            CHECK(spec.offset == offset);
            offset += spec.size();
        }
        CHECK(offset == parameter_count(cfg));
        CHECK(specs.front().name == "wte.weight");
        CHECK(specs.front().cols == (s == Scheme::concatenated ? 6u : 8u));
        CHECK(specs.back().name == "lm_head.weight");
        CHECK(specs.back().rows == 11u);
        CHECK(specs.size() == 1 + (s == Scheme::learned || s == Scheme::t5) + 2 * 12 + 3);
        CHECK(specs[1].name == (s == Scheme::learned ? "wpe.weight" : s == Scheme::t5 ? "t5_bias.weight" : "h.0.ln_1.weight"));
    }
    const auto specs = parameter_specs(small_model_config(Scheme::additive));
    CHECK(specs[3].name == "h.0.attn.c_attn.weight");
    CHECK(specs[3].rows == 24u);
    CHECK(specs[3].cols == 8u);
    CHECK(specs[3].decayed());
    CHECK_FALSE(specs[4].decayed());
    CHECK(specs[11].name == "h.0.mlp.c_proj.weight");
    CHECK(specs[11].rows == 8u);
    CHECK(specs[11].cols == 32u);
}

TEST_CASE("kTensorTable: offsets, specs and inspect's packing agree", "[model][config]") {
    // tensor_offsets, parameter_specs and the packed transposes are three readings of one table:
    // each spec's offset is the offsets entry of its Tensor, per-layer names carry their block, and
    // a block's 2-D tensors in spec order tile its packed 12·d² exactly as packed_offset_d2 says.
    for (Scheme s : {Scheme::nope, Scheme::additive, Scheme::learned, Scheme::concatenated, Scheme::rotary,
                     Scheme::alibi, Scheme::t5}) {
        ModelConfig cfg = small_model_config(s);
        cfg.layers = 3;
        REQUIRE(validate(cfg) == nullptr);
        const auto specs = parameter_specs(cfg);
        const TensorOffsets at = tensor_offsets(cfg);
        REQUIRE(at.layers.size() == cfg.layers);
        std::size_t per_block = 0, per_layer_seen = 0, packed = 0;
        for (const TensorRule& r : kTensorTable) per_block += r.per_layer;
        for (const auto& spec : specs) {
            const TensorRule& r = rule(spec.id);
            INFO(spec.name);
            CHECK(spec.init == r.init);
            if (!r.per_layer) {
                CHECK(spec.name == r.name);
                CHECK(at[spec.id] == spec.offset);
                continue;
            }
            const std::size_t l = per_layer_seen++ / per_block;
            CHECK(spec.name == "h." + std::to_string(l) + "." + r.name);
            CHECK(at.layers[l][spec.id] == spec.offset);
            if (spec.cols == 0) continue;
            if (l == 0) {
                CHECK(packed_offset_d2(spec.id) * cfg.d * cfg.d == packed);
                packed += spec.size();
            }
        }
        CHECK(per_layer_seen == per_block * cfg.layers);
        CHECK(packed == kPackedLayerD2 * cfg.d * cfg.d);
    }
}

TEST_CASE("validate names the offending field", "[model][config]") {
    ModelConfig cfg = small_model_config(Scheme::rotary);
    cfg.heads = 3;
    CHECK_THAT(msg(validate(cfg)), StartsWith("heads"));
    cfg = small_model_config(Scheme::rotary);
    cfg.heads = 8;  // d_h = 1: odd
    CHECK_THAT(msg(validate(cfg)), StartsWith("heads"));
    cfg = small_model_config(Scheme::xpos);
    CHECK_THAT(msg(validate(cfg)), StartsWith("scheme"));
    cfg = small_model_config(Scheme::additive);
    cfg.d_pos = 2;
    CHECK_THAT(msg(validate(cfg)), StartsWith("dPos"));
    cfg = small_model_config(Scheme::concatenated);
    cfg.d_pos = 8;
    CHECK_THAT(msg(validate(cfg)), StartsWith("dPos"));
    cfg = small_model_config(Scheme::additive);
    cfg.vocab = 1;
    CHECK_THAT(msg(validate(cfg)), StartsWith("vocab"));
    cfg.vocab = 65536;
    cfg.d = 1024;
    CHECK_THAT(msg(validate(cfg)), StartsWith("the model has more than 2^24 parameters"));
    cfg = small_model_config(Scheme::t5);
    cfg.t5_buckets = 32;
    cfg.t5_max_distance = 16;  // = t5Buckets/2: no room for the logarithmic buckets
    CHECK_THAT(msg(validate(cfg)), StartsWith("t5MaxDistance"));
    cfg = small_model_config(Scheme::additive);
    cfg.context = 0;
    CHECK_THAT(msg(validate(cfg)), StartsWith("context"));
}
