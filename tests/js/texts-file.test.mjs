// Checks the committed book data/moby-dick.txt (origin and normalisation in data/README.md)
// without the source package: size, checksum, encoding and the character set the character task's
// vocabulary is built from. ./scripts/make-texts --check rebuilds it from the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import crypto from 'node:crypto';

const FILE = new URL('../../data/moby-dick.txt', import.meta.url);
const README = new URL('../../data/README.md', import.meta.url);
const SHA256 = '0af87669e16afbac484ab450db3343221bc6582e65565fcaa535807b5c1df370';
const SIZE = 1220848;

const bytes = fs.readFileSync(FILE);
const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);

test('moby-dick.txt: size and sha256 as data/README.md states', () => {
  assert.equal(bytes.length, SIZE);
  assert.equal(crypto.createHash('sha256').update(bytes).digest('hex'), SHA256);
  const readme = fs.readFileSync(README, 'utf8');
  assert.ok(readme.includes(SHA256));
  assert.ok(readme.includes(`${SIZE} bytes`));
});

test('moby-dick.txt: NFC, \\n line ends, no tabs, one trailing line break', () => {
  assert.equal(text.normalize('NFC'), text);
  assert.ok(!/[\r\t\uFEFF]/.test(text));
  assert.ok(text.endsWith('.\n') && !text.endsWith('\n\n'));
  assert.ok(text.startsWith('CONTENTS\n'));
  assert.equal(text.split('Call me Ishmael.').length, 2);
  assert.ok(text.indexOf('CHAPTER 1. Loomings.\n\nCall me Ishmael.') > 0);
  assert.ok(text.trimEnd().endsWith('only found another orphan.'));
});

test('moby-dick.txt: the 89 characters of the task vocabulary, sorted by code point', () => {
  const characters = [...new Set(text)].sort((a, b) => a.codePointAt(0) - b.codePointAt(0));
  assert.equal(characters.length, 89);
  assert.equal(characters.slice(0, 2).join(''), '\n ');
  assert.equal(characters.at(-1), '—');
  assert.deepEqual(characters.filter((c) => c.codePointAt(0) > 0x7e), ['Œ', 'η', 'ο', 'ς', 'τ', 'ϰ', 'ח', 'ן', '—']);
  assert.equal([...text].length, 1217396);
});
