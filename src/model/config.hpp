// A trainable model's configuration and its parameter layout: kTensorTable below is the one home
// of the tensor names, shapes, file and buffer order, initialisation and freezing of
// docs/ARCHITECTURE.md, "The trained model"; parameter_specs, parameter_count, tensor_offsets, the
// weights file, inspect's packed transposes and the initialiser all read it.
//
// Shapes (V vocabulary, d width, L layers, h heads, d_h = d/h, T context, d_pos position dims):
// the table's Dim rules. h.l.attn.c_attn.weight [3d, d]: rows 0…d−1 → q, d…2d−1 → k, 2d…3d−1 → v.
// Every weight is PyTorch's nn.Linear layout [out, in]: y = x·Wᵀ + b. AdamW decays exactly the
// 2-D tensors (TensorSpec::decayed). All parameters live in one flat float buffer, tensor after
// tensor in table order with the per-layer rows repeated for l = 0 … L − 1 as h.l.<name>, so
// gradients and AdamW's moments share the same offsets.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/limits.hpp"
#include "encodings/phases.hpp"
#include "encodings/scheme.hpp"
#include "encodings/scheme_table.hpp"

namespace posenc::model {

// The axes a concatenated word model's wte rows are principal coordinates on
// (model/word_vocabulary.hpp, embedding_rows): the centred vocabulary's (PCA), or its uncentred
// second moments (the rows' own directions, their mean included). Names in enum order.
enum class WordPca : unsigned char { centred, uncentred };
// positionScale multiplies the sinusoidal table as α multiplies the word vectors: the same cap.
inline constexpr float kMaxPositionScale = static_cast<float>(limits::kMaxAlpha);
inline constexpr const char* kWordPcaNames[] = {"centred", "uncentred"};
static_assert(sizeof(kWordPcaNames) / sizeof(kWordPcaNames[0]) == static_cast<std::size_t>(WordPca::uncentred) + 1);

struct ModelConfig {
    Scheme scheme = Scheme::additive;  // one of kTrainableSchemes
    std::size_t vocab = 0;             // V
    std::size_t d = 64;                // width
    std::size_t layers = 2;            // L
    std::size_t heads = 4;             // h; d_h = d/h must be even
    std::size_t context = 64;          // T, the training length (learned: rows of wpe)
    std::size_t d_pos = 0;             // concatenated only: even, 2 ≤ d_pos ≤ d − 2; 0 otherwise
    double base = 10000.0;
    Layout pairing = Layout::interleaved;  // rotary only
    float alpha = 1.0f;
    // additive, concatenated: the sinusoidal input table is position_scale·PE (‖PE(p)‖² = width/2,
    // so √(dPos/d) gives additive concatenation's position energy). 1 = the plain table; a file
    // states it only when it is not 1, so a default model's header has no such key.
    float position_scale = 1.0f;
    // concatenated word models only: how wte's rows were reduced (the forward pass never reads it;
    // the file says how its frozen rows were made). A file states it only when uncentred.
    WordPca word_pca = WordPca::centred;
    // t5 only; 0 = derived from context by settled() (t5_defaults), which every model and every
    // weights file applies, so a model's config and a file's "posenc" always state the numbers.
    int t5_buckets = 0;
    int t5_max_distance = 0;
    std::uint64_t seed = 1;            // initialisation
    // wte.weight is an input fixed from outside (e.g. GloVe rows): AdamW leaves it untouched (no
    // update, no decay) and gradient clipping ignores it, as PyTorch does for a tensor with
    // requires_grad_(False); gradients() still reports its gradient.
    bool frozen_embedding = false;
};

// T5's bucket settings for a causal model trained at length `context`, chosen so that the
// trained distances 0 … context − 1 reach every bucket (an unreached bucket keeps its initial 0
// and gets no gradient, so every distance it covers past T reads an untrained bias).
// T5 itself (512-token training, 32 buckets, max distance 128) reaches all of them; at this lab's
// T = 32 no max distance reaches 32 buckets, since the first logarithmic buckets are narrower
// than one integer distance. Rule: max distance = context (the farthest trained distance falls
// in the last bucket), buckets = the largest even count from 4 to 32 that distances below context
// all reach at that max distance (T = 32 → 30 buckets; T ≥ 64 → 32). `given_buckets` (non-zero)
// fixes the bucket count; the max distance still follows context, at least buckets/2 + 1.
struct T5Settings {
    int buckets;
    int max_distance;
};
T5Settings t5_defaults(std::size_t context, int given_buckets = 0);
// How many of `buckets` buckets the causal distances 0 … context − 1 reach at `max_distance`.
int t5_buckets_reached(std::size_t context, int buckets, int max_distance);
// cfg with every field that is 0 for "derived" filled in: t5Buckets and t5MaxDistance from
// t5_defaults for the t5 scheme; 32 and 128 (the fields are unused, the files always held them)
// for the others.
ModelConfig settled(ModelConfig cfg);

// Limits, enforced before anything is allocated. Parameters (with gradients and two AdamW
// moments) stay within 4·kMaxParameters floats, 256 MiB.
inline constexpr std::size_t kMaxVocab = 65536;
inline constexpr std::size_t kMaxWidth = 1024;
inline constexpr std::size_t kMaxLayers = 16;
inline constexpr std::size_t kMaxHeads = limits::kMaxHeads;  // the page's, one home (base/limits.hpp)
inline constexpr std::size_t kMaxContext = 4096;
inline constexpr unsigned kMaxParametersLog2 = 24;
inline constexpr std::size_t kMaxParameters = std::size_t{1} << kMaxParametersLog2;

// nullptr when cfg is valid, else a message naming the offending field by its JS name
// (scheme, vocab, d, layers, heads, context, dPos, base, pairing, alpha, positionScale, wordPca,
// t5Buckets, t5MaxDistance, seed, frozenEmbedding).
const char* validate(const ModelConfig& cfg);

// The JS API's name of a trainable scheme (the table's name); nullptr for any other scheme.
const char* trainable_scheme_name(Scheme s);
// The trainable scheme of that name; false for any other name.
bool trainable_scheme_from_name(std::string_view name, Scheme& out);
// "scheme must be one of additive, concatenated, …": the trainable names in the table's order.
const char* trainable_scheme_message();

// How a tensor starts (docs/ARCHITECTURE.md, "Output, loss and initialisation"; seeded per
// tensor): N(0, 0.02), N(0, 0.02/√(2L)) for the two residual projections, 0, or 1.
enum class Init : unsigned char { normal, residual, zeros, ones };

// A tensor dimension as a rule on the config: none (a 1-D tensor's second), d, 3d, 4d, V,
// T (context), wte's columns (d − d_pos for concatenated, else d), t5Buckets, h.
enum class Dim : unsigned char { none, d, d3, d4, vocab, context, wte_cols, t5_buckets, heads };

enum class Tensor : unsigned char {
    wte, wpe, t5_bias,
    ln1_w, ln1_b, attn_w, attn_b, proj_w, proj_b, ln2_w, ln2_b, fc_w, fc_b, mlp_proj_w, mlp_proj_b,
    lnf_w, lnf_b, lm_head,
};

struct TensorRule {
    Tensor id;
    const char* name;   // as PyTorch would name it; a per-layer tensor is h.<l>.<name>
    Dim rows, cols;
    Init init;
    SchemeSet schemes;  // the schemes whose models have it
    bool per_layer;     // once per block
    bool freezable;     // frozen when cfg.frozen_embedding (then AdamW and clipping skip it)
};

inline constexpr SchemeSet kEvery = kTrainableSchemes;
inline constexpr TensorRule kTensorTable[] = {
    {Tensor::wte, "wte.weight", Dim::vocab, Dim::wte_cols, Init::normal, kEvery, false, true},
    {Tensor::wpe, "wpe.weight", Dim::context, Dim::d, Init::normal, scheme_bit(Scheme::learned), false, false},
    {Tensor::t5_bias, "t5_bias.weight", Dim::t5_buckets, Dim::heads, Init::zeros, scheme_bit(Scheme::t5), false, false},
    {Tensor::ln1_w, "ln_1.weight", Dim::d, Dim::none, Init::ones, kEvery, true, false},
    {Tensor::ln1_b, "ln_1.bias", Dim::d, Dim::none, Init::zeros, kEvery, true, false},
    {Tensor::attn_w, "attn.c_attn.weight", Dim::d3, Dim::d, Init::normal, kEvery, true, false},
    {Tensor::attn_b, "attn.c_attn.bias", Dim::d3, Dim::none, Init::zeros, kEvery, true, false},
    {Tensor::proj_w, "attn.c_proj.weight", Dim::d, Dim::d, Init::residual, kEvery, true, false},
    {Tensor::proj_b, "attn.c_proj.bias", Dim::d, Dim::none, Init::zeros, kEvery, true, false},
    {Tensor::ln2_w, "ln_2.weight", Dim::d, Dim::none, Init::ones, kEvery, true, false},
    {Tensor::ln2_b, "ln_2.bias", Dim::d, Dim::none, Init::zeros, kEvery, true, false},
    {Tensor::fc_w, "mlp.c_fc.weight", Dim::d4, Dim::d, Init::normal, kEvery, true, false},
    {Tensor::fc_b, "mlp.c_fc.bias", Dim::d4, Dim::none, Init::zeros, kEvery, true, false},
    {Tensor::mlp_proj_w, "mlp.c_proj.weight", Dim::d, Dim::d4, Init::residual, kEvery, true, false},
    {Tensor::mlp_proj_b, "mlp.c_proj.bias", Dim::d, Dim::none, Init::zeros, kEvery, true, false},
    {Tensor::lnf_w, "ln_f.weight", Dim::d, Dim::none, Init::ones, kEvery, false, false},
    {Tensor::lnf_b, "ln_f.bias", Dim::d, Dim::none, Init::zeros, kEvery, false, false},
    {Tensor::lm_head, "lm_head.weight", Dim::vocab, Dim::d, Init::normal, kEvery, false, false},
};
inline constexpr std::size_t kTensorCount = sizeof(kTensorTable) / sizeof(kTensorTable[0]);
inline constexpr const TensorRule& rule(Tensor t) { return kTensorTable[static_cast<std::size_t>(t)]; }

namespace table_check {
// Row i is Tensor i; the per-layer rows are one run (the blocks sit between the tensors before and
// after them); only the first row can be frozen (the trained tensors stay one tail, trained_offset).
constexpr bool well_formed() {
    std::size_t runs = 0;
    for (std::size_t i = 0; i < kTensorCount; ++i) {
        if (static_cast<std::size_t>(kTensorTable[i].id) != i) return false;
        if (kTensorTable[i].per_layer && (i == 0 || !kTensorTable[i - 1].per_layer)) ++runs;
        if (kTensorTable[i].freezable && i != 0) return false;
        if (kTensorTable[i].per_layer && kTensorTable[i].schemes != kEvery) return false;
    }
    return runs == 1;
}
static_assert(well_formed(), "kTensorTable: rows out of Tensor order, per-layer rows split, or a late freezable row");
}  // namespace table_check

// A per-layer dimension as a multiple of d (0: none or not a multiple of d).
constexpr std::size_t d_multiple(Dim dim) { return dim == Dim::d ? 1 : dim == Dim::d3 ? 3 : dim == Dim::d4 ? 4 : 0; }
// inspect's packed transposes: a block's 2-D tensors (Wᵀ each) one after another in table order.
// Offset of t's Wᵀ in units of d², and the block's total (12: c_attn 3, attn c_proj 1, c_fc 4,
// mlp c_proj 4).
constexpr std::size_t packed_offset_d2(Tensor t) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(t); ++i)
        if (kTensorTable[i].per_layer && kTensorTable[i].cols != Dim::none)
            at += d_multiple(kTensorTable[i].rows) * d_multiple(kTensorTable[i].cols);
    return at;
}
inline constexpr std::size_t kPackedLayerD2 = packed_offset_d2(Tensor::lnf_w);
static_assert(kPackedLayerD2 == 12, "a block's matrices are 12·d² floats");

struct TensorSpec {
    std::string name;        // as PyTorch would name it (kTensorTable)
    std::size_t rows = 0;    // first dimension
    std::size_t cols = 0;    // second dimension; 0 for a 1-D tensor
    std::size_t offset = 0;  // first float in the flat parameter buffer
    std::size_t size() const { return cols == 0 ? rows : rows * cols; }
    // Not trained (wte.weight of a frozenEmbedding model). Only the first tensor can be frozen,
    // so the trained tensors are one tail of the flat buffer (trained_offset).
    bool frozen = false;
    Init init = Init::zeros;
    Tensor id = Tensor::wte;
    // AdamW's decoupled weight decay applies to trained tensors with two dimensions only.
    bool decayed() const { return cols != 0; }
};

// Offsets of every tensor in the flat parameter buffer, indexed by Tensor: the whole-model rows
// in model, the per-layer rows in layers[l] (absent tensors: 0).
struct TensorOffsets {
    struct Layer {
        std::array<std::size_t, kTensorCount> at{};
        std::size_t operator[](Tensor t) const { return at[static_cast<std::size_t>(t)]; }
    };
    Layer model;
    std::vector<Layer> layers;
    std::size_t operator[](Tensor t) const { return model[t]; }
};
TensorOffsets tensor_offsets(const ModelConfig& cfg);

// The parameter tensors of a valid cfg, in file and buffer order; offsets are consecutive.
std::vector<TensorSpec> parameter_specs(const ModelConfig& cfg);
std::size_t parameter_count(const ModelConfig& cfg);
// The first float of the trained tensors: 0, or the size of a frozen wte.weight.
std::size_t trained_offset(const std::vector<TensorSpec>& specs);

}  // namespace posenc::model
