"""The lab's GloVe-style word tokenizer (src/vectors/tokenizer.hpp; docs/API.md, "Tokenizer"),
without a vocabulary (hyphenated words stay whole), as the word task encodes its texts.

Rules, in order: invalid UTF-8 reads as U+FFFD; whitespace and control characters separate tokens;
ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic capitals are lowercased and ’ reads as ';
a word is a run of letters and digits (combining marks attached) with inner joiners (a hyphen or
apostrophe before a word character, a point or comma between digits); clitics split off
("n't", "'s", "'re", "'ve", "'ll", "'d", "'m"); every other character is a token of its own,
except a run of '.' and the attaching marks (and what a zero-width joiner glues on) after it.
"""

from __future__ import annotations

from typing import List

REPLACEMENT = 0xFFFD
CLITICS = ("'s", "'re", "'ve", "'ll", "'d", "'m")


def decode(data: bytes) -> List[int]:
    """Code points; a byte that does not start a valid sequence reads as U+FFFD (one byte consumed)."""
    out, i, n = [], 0, len(data)
    while i < n:
        lead = data[i]
        if lead < 0x80:
            out.append(lead)
            i += 1
            continue
        length = 4 if 0xF0 <= lead <= 0xF4 else 3 if lead >= 0xE0 else 2 if 0xC2 <= lead < 0xE0 else 0
        if length == 0 or i + length > n:  # 0xF5… lead 3-byte reads, as the core's decoder does
            out.append(REPLACEMENT)
            i += 1
            continue
        c = lead & (0x7F >> length)
        ok = True
        for k in range(1, length):
            if data[i + k] & 0xC0 != 0x80:
                ok = False
                break
            c = (c << 6) | (data[i + k] & 0x3F)
        if not ok or c < (0, 0, 0x80, 0x800, 0x10000)[length] or c > 0x10FFFF or 0xD800 <= c <= 0xDFFF:
            out.append(REPLACEMENT)
            i += 1
            continue
        out.append(c)
        i += length
    return out


def is_space(c: int) -> bool:
    return (c <= 0x20 or 0x7F <= c <= 0xA0 or 0x2000 <= c <= 0x200B or c in (0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
                                                                            0xFEFF))


def is_attaching(c: int) -> bool:
    return (0x0300 <= c <= 0x036F or c == 0x200D or 0xFE00 <= c <= 0xFE0F or 0x1F3FB <= c <= 0x1F3FF or c == 0x20E3
            or 0xE0020 <= c <= 0xE007F)


def is_digit(c: int) -> bool:
    return 0x30 <= c <= 0x39


def is_word_char(c: int) -> bool:
    if c < 0x80:
        return is_digit(c) or 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A
    if c < 0xC0:
        return c in (0xAA, 0xB5, 0xBA)
    if c in (0xD7, 0xF7) or 0x2000 <= c <= 0x2BFF or 0x3000 <= c <= 0x303F or 0xFF00 <= c <= 0xFF0F:
        return False
    return not (0x1F000 <= c <= 0x1FAFF or c == REPLACEMENT)


def lowercase(c: int) -> int:
    if 0x41 <= c <= 0x5A or (0xC0 <= c <= 0xDE and c != 0xD7):
        return c + 32
    if 0x100 <= c <= 0x17F and c not in (0x130, 0x138, 0x149, 0x178):
        odd_capitals = 0x139 <= c <= 0x148 or 0x179 <= c <= 0x17E
        return c + 1 if (c % 2 == 1 if odd_capitals else c % 2 == 0) else c
    if c == 0x178:
        return 0xFF
    if (0x391 <= c <= 0x3A9 and c != 0x3A2) or 0x410 <= c <= 0x42F:
        return c + 32
    if 0x400 <= c <= 0x40F:
        return c + 80
    return c


def _text(chars: List[int]) -> str:
    return "".join(map(chr, chars))


def _emit_word(out: List[str], word: List[int]) -> None:
    text = _text(word)
    if len(text) > 3 and text.endswith("n't") and text[-4] != "-":
        out += [text[:-3], "n't"]
        return
    for clitic in CLITICS:
        if len(text) > len(clitic) and text.endswith(clitic):
            out += [text[:-len(clitic)], clitic]
            return
    out.append(text)


def tokenize(text: str) -> List[str]:
    """The tokens of a text (a str, or UTF-8 bytes)."""
    data = text if isinstance(text, (bytes, bytearray)) else text.encode("utf-8", "surrogatepass")
    chars = [0x27 if c == 0x2019 else lowercase(c) for c in decode(bytes(data))]
    tokens: List[str] = []
    n, i = len(chars), 0
    while i < n:
        c = chars[i]
        if is_space(c):
            i += 1
            continue
        end = i + 1
        if is_word_char(c):
            while end < n:
                e = chars[end]
                joiner = ((e in (0x2D, 0x27) and end + 1 < n and is_word_char(chars[end + 1])) or
                          (e in (0x2E, 0x2C) and is_digit(chars[end - 1]) and end + 1 < n and is_digit(chars[end + 1])))
                if not (is_word_char(e) or is_attaching(e) or joiner):
                    break
                end += 1
            _emit_word(tokens, chars[i:end])
        else:
            if c == 0x2E:
                while end < n and chars[end] == 0x2E:
                    end += 1
            while end < n and (is_attaching(chars[end]) or (chars[end - 1] == 0x200D and not is_space(chars[end]))):
                end += 1
            tokens.append(_text(chars[i:end]))
        i = end
    return tokens
