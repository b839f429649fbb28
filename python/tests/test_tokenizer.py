"""The twin's word tokenizer gives the core's tokens (lab.tokenize), token for token, on the book,
the held-out words text, and a line of every rule's edge cases."""

import json

from conftest import ROOT, run_core
from posenc_lab.tokenizer import tokenize

EDGES = ("Don't stop—it's 3.14, 1,000 or co-operate's e-mail... ‘quoted’ KING'S Æsop ŁÓDŹ Ωμέγα ПРИВЕТ Ѐ naïve "
         "cafe\u0301 👍🏽 👨‍👩‍👧 1️⃣ x--y o'clock ...... ’tis we'll they'd I'm you're we've can't do-n't \x00\x07tab\there "
         "½ × ÷ ª µ º ﬁ 。、 a-\nb 'quoted' rock'n'roll 2.5.6 ,5 5, Ÿ ĳ Ĳ ŉ İ ı")


def test_tokens_equal_the_cores(tmp_path):
    texts = [(ROOT / "data" / "moby-dick.txt").read_text(encoding="utf-8")[:150000],
             (ROOT / "data" / "words-heldout.txt").read_text(encoding="utf-8")[:150000], EDGES]
    files = []
    for i, text in enumerate(texts):
        files.append(tmp_path / f"text-{i}.txt")
        files[-1].write_text(text, encoding="utf-8")
    out = run_core({"cases": [], "tokenize": [{"textFile": str(f)} for f in files]}, tmp_path / "core")
    for i, text in enumerate(texts):
        core = json.loads((out / f"tokens-{i}.json").read_text())
        assert len(core) > 10
        assert tokenize(text) == core, i


def test_invalid_bytes_read_as_replacement_characters():
    assert tokenize(b"ab\xffcd \xc0\x80x") == ["ab", "\ufffd", "cd", "\ufffd", "\ufffd", "x"]
