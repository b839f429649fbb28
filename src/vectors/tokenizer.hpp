// GloVe-style tokenizer: the token stream the GloVe 6B vectors were trained on, as far as the
// sentence alone can tell.
//
// Rules, in order:
//   - Text is UTF-8; an invalid byte reads as U+FFFD. Whitespace and control characters separate
//     tokens and are dropped.
//   - Letters are lowercased: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic capitals.
//     (No Unicode normalisation: a decomposed "é" stays two code points.)
//   - A word is a run of letters and digits (any script; combining marks stay attached), with
//     inner joiners kept: a hyphen or apostrophe between two word characters ("co-operate",
//     "o'clock"), a point or comma between two digits ("3.14", "1,000"). ’ reads as '.
//   - Clitics split off as in GloVe's source tokenization: "king's" → "king" "'s", "don't" →
//     "do" "n't", likewise 're 've 'll 'd 'm.
//   - A hyphenated word that the vocabulary lacks is split at its hyphens ("state-of-the-art" →
//     "state" "-" "of" "-" "the" "-" "art"); with no vocabulary it stays whole.
//   - Every other character is a token of its own, except that a run of two or more '.' is one
//     token ("..."), and emoji modifiers, variation selectors and zero-width joiners stay with the
//     symbol before them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace posenc {

struct VectorSet;

std::vector<std::string> tokenize(std::string_view text, const VectorSet* vocabulary = nullptr);

}  // namespace posenc
