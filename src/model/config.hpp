// A trainable model's configuration and its parameter layout: the one home of the tensor names,
// shapes and file order of DESIGN.md, "Trained models", shared by the model, the weights file,
// the bindings and the trainer.
//
// Shapes (V vocabulary, d width, L layers, h heads, d_h = d/h, T context, d_pos position dims):
//   wte.weight                [V, d − d_pos]  (concatenated) or [V, d]
//   wpe.weight                [T, d]          (learned only)
//   t5_bias.weight            [t5_buckets, h] (t5 only; one table shared by all layers)
//   h.l.ln_1.weight / .bias   [d]
//   h.l.attn.c_attn.weight    [3d, d]   rows 0…d−1 → q, d…2d−1 → k, 2d…3d−1 → v
//   h.l.attn.c_attn.bias      [3d]
//   h.l.attn.c_proj.weight    [d, d]
//   h.l.attn.c_proj.bias      [d]
//   h.l.ln_2.weight / .bias   [d]
//   h.l.mlp.c_fc.weight       [4d, d]
//   h.l.mlp.c_fc.bias         [4d]
//   h.l.mlp.c_proj.weight     [d, 4d]
//   h.l.mlp.c_proj.bias       [d]
//   ln_f.weight / .bias       [d]
//   lm_head.weight            [V, d]    untied, no bias
// Every weight is PyTorch's nn.Linear layout [out, in]: y = x·Wᵀ + b.
// All parameters live in one flat float buffer, tensor after tensor in the order above
// (parameter_specs), so gradients and AdamW's moments share the same offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "phases.hpp"
#include "scheme.hpp"

namespace posenc::model {

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
// and gets no gradient, so every distance it covers past T reads an untrained bias; issue 24).
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
inline constexpr std::size_t kMaxHeads = 64;
inline constexpr std::size_t kMaxContext = 4096;
inline constexpr std::size_t kMaxParameters = std::size_t{1} << 24;

// nullptr when cfg is valid, else a message naming the offending field by its JS name
// (scheme, vocab, d, layers, heads, context, dPos, base, pairing, alpha, t5Buckets,
// t5MaxDistance, seed, frozenEmbedding).
const char* validate(const ModelConfig& cfg);

// The JS API's name of a trainable scheme ("nope", "additive", "learned", "concatenated",
// "rotary", "alibi", "t5"); nullptr for any other scheme.
const char* trainable_scheme_name(Scheme s);
// The trainable scheme of that name; false for any other name.
bool trainable_scheme_from_name(std::string_view name, Scheme& out);

struct TensorSpec {
    std::string name;        // as PyTorch would name it (table above)
    std::size_t rows = 0;    // first dimension
    std::size_t cols = 0;    // second dimension; 0 for a 1-D tensor
    std::size_t offset = 0;  // first float in the flat parameter buffer
    std::size_t size() const { return cols == 0 ? rows : rows * cols; }
    // Not trained (wte.weight of a frozenEmbedding model). Only the first tensor can be frozen,
    // so the trained tensors are one tail of the flat buffer (trained_offset).
    bool frozen = false;
    // AdamW's decoupled weight decay applies to trained tensors with two dimensions only.
    bool decayed() const { return cols != 0; }
};

// The parameter tensors of a valid cfg, in file and buffer order; offsets are consecutive.
std::vector<TensorSpec> parameter_specs(const ModelConfig& cfg);
std::size_t parameter_count(const ModelConfig& cfg);
// The first float of the trained tensors: 0, or the size of a frozen wte.weight.
std::size_t trained_offset(const std::vector<TensorSpec>& specs);

}  // namespace posenc::model
