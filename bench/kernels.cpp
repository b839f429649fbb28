#include "kernels.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/analyses.hpp"
#include "attention/attention.hpp"
#include "attention/products.hpp"
#include "encodings/encodings.hpp"
#include "encodings/rotary.hpp"
#include "encodings/sinusoidal.hpp"
#include "workloads.hpp"

namespace posenc::bench {

void Case::ensure_vocab(const VectorSet* vocab) {
    const bool want_glove = vocab && vocab->dim == d_;
    if (vocab_d_ == d_ && glove_ == want_glove && vocab_rows_ > 0) return;
    if (want_glove) {
        full_.set_vocabulary(vocab->rows.data(), vocab->count, vocab->dim, vocab->component_rms);
        vocab_rows_ = vocab->count;
    } else {
        const std::size_t v = 20000;
        const auto rows = random_values(v * d_, 777 + d_, 1.7f);
        full_.set_vocabulary(rows.data(), v, d_, 1.0f);
        vocab_rows_ = v;
    }
    glove_ = want_glove;
    vocab_d_ = d_;
    retriever_.set_vocabulary(full_.unit_vocab(), vocab_rows_, d_);
}

void Case::setup(std::size_t n, std::size_t d, const VectorSet* vocab) {
    n_ = n;
    d_ = d;
    q_ = random_values(n * d, 1 + n + d);
    k_ = random_values(n * d, 2 + n + d);
    v_ = random_values(n * d, 3 + n + d);
    x_ = random_values(n * d, 4 + n + d);
    scores_.assign(n * n, 0.0f);
    weights_.assign(n * n, 0.0f);
    output_.assign(n * d, 0.0f);
    terms_.clear();
    // Softmax input: real attention logits.
    attention_scores(q_.data(), k_.data(), n, n, d, 1.0f / std::sqrt(static_cast<float>(d)), false, scores_.data());
    full_ready_ = false;
    vocab_rows_ = vocab_rows_ && vocab_d_ == d ? vocab_rows_ : 0;
    ensure_vocab(vocab);
    // Identity retrieval inputs: n vocabulary words (Zipf-like repeats), their rows as truth.
    keys_.resize(n);
    best_.resize(n);
    rank_.resize(n);
    cosine_.resize(n);
    retrieved_.resize(n);
    truth_ = zipf_rows(n, vocab_rows_, 99);
    for (std::size_t p = 0; p < n; ++p) keys_[p] = truth_[p];
    retriever_.clear();
    model_.reset();
}

// The batch is benchBatch() of bench/tfjs-train.mjs (the same LCG, seed 1), so the TF.js peer
// trains on the same ids.
double Case::train_step() {
    if (!model_) {
        model::ModelConfig cfg;
        cfg.scheme = Scheme::additive;
        cfg.vocab = kTrainVocab;
        cfg.d = d_;
        cfg.layers = kTrainLayers;
        cfg.heads = kTrainHeads;
        cfg.context = n_;
        model_ = std::make_unique<model::Transformer>(cfg);
        train_tokens_.resize(kTrainBatch * (n_ + 1));
        std::uint32_t s = 1;
        for (std::int32_t& id : train_tokens_) {
            s = s * 1664525u + 1013904223u;
            id = static_cast<std::int32_t>(s % kTrainVocab);
        }
    }
    return model_->train_step(train_tokens_.data(), kTrainBatch, n_, nullptr, model::AdamWOptions{});
}

float* Case::buffer(int id) {
    switch (id) {
        case 0: return q_.data();
        case 1: return k_.data();
        case 2: return v_.data();
        case 3: return scores_.data();
        case 4: return weights_.data();
        case 5: return output_.data();
        case 6: return terms_.data();
        default: return x_.data();
    }
}

double Case::run(int kernel) {
    const std::size_t n = n_, d = d_;
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    switch (kernel) {
        case kSinusoidal:
            sinusoidal_table(n, d, 10000.0, Layout::interleaved, output_.data());
            return output_[n * d - 1];
        case kRotate:
            rotate(x_.data(), n, d, 10000.0, 0.0, Layout::interleaved, output_.data());
            return output_[n * d - 1];
        case kScores:
            attention_scores(q_.data(), k_.data(), n, n, d, scale, false, weights_.data());
            return weights_[n * n - 1];
        case kSoftmax:
            softmax_rows(scores_.data(), n, n, false, weights_.data());
            return weights_[n * n - 1];
        case kWeightedSum:
            weighted_sum(weights_.data(), v_.data(), n, n, d, false, output_.data());
            return output_[n * d - 1];
        case kAttention:
            attention(q_.data(), k_.data(), v_.data(), n, d, scale, false, weights_.data(), output_.data());
            return output_[n * d - 1];
        case kAttentionCausal:
            attention(q_.data(), k_.data(), v_.data(), n, d, scale, true, weights_.data(), output_.data());
            return output_[n * d - 1];
        case kDecomposition:
            // Additive scheme's four terms: q = k = content (q_) + position (x_).
            terms_.resize(4 * n * n);
            logit_terms(q_.data(), x_.data(), q_.data(), x_.data(), n, d, scale, terms_.data());
            return terms_[4 * n * n - 1];
        case kIdentity: {
            // Warm caches (rows of every token and position exist after the first call); each call
            // decodes all n additive x_p against the whole vocabulary.
            for (std::size_t p = 0; p < n; ++p) {
                std::copy(full_.unit_vocab() + truth_[p] * d, full_.unit_vocab() + (truth_[p] + 1) * d, x_.data() + p * d);
            }
            retriever_.retrieve(x_.data(), keys_.data(), truth_.data(), n, 3.0f, true, 10000.0, Layout::interleaved,
                                retrieved_.data());
            return retrieved_[n - 1].rank;
        }
        case kIdentityBrute: {
            // The same question brute force: x_p = 3·û_t + PE(p) against every unit row.
            sinusoidal_table(n, d, 10000.0, Layout::interleaved, output_.data());
            for (std::size_t p = 0; p < n; ++p) {
                for (std::size_t j = 0; j < d; ++j) x_[p * d + j] = 3.0f * full_.unit_vocab()[truth_[p] * d + j] + output_[p * d + j];
            }
            nearest_by_cosine(x_.data(), n, full_.unit_vocab(), vocab_rows_, d, truth_.data(), best_.data(),
                              cosine_.data(), rank_.data());
            return rank_[n - 1];
        }
        case kFullKeystroke:
        case kFullCold:
            if (!full_ready_) {
                full_.set_sentence(n);
                full_ready_ = true;
            }
            return full_.run(kernel == kFullCold);
        case kTrain:
            return train_step();
        default:
            return 0.0;
    }
}

}  // namespace posenc::bench
