// The README and docs/ hold: every relative link lands on a file (and a heading, for #anchors),
// the README stays short enough to read in a few screens, the code's citations of
// docs/ARCHITECTURE.md name sections that exist, and every figure the docs state (element sizes
// and budget, scheme counts, GloVe's vocabulary, fuzz targets, test layers, the benchmark date) is
// the one the build, dist/ and the repository produce.
// Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { load } from '../../dist/posenc.mjs';
import { SCHEME_TABLE } from '../../dist/scheme-table.mjs';
import { anchorsOf, slug } from './markdown.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const ALL = DOCS.map(read).join('\n');

// The README's length limit ("at most about 250 lines").
const README_MAX_LINES = 250;

// Bundle sizes are stated as "about N KB" rounded to whole KB. 5% lets them drift by a few KB
// between doc updates (one feature's worth), and still fails a figure left stale by a release:
// the 0.1.0 figures (205 KB, 107 KB gzipped) were 10% under the 0.2.0 bundle.
const SIZE_TOLERANCE = 0.05;

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen'];
const numberOf = (word) => {
  const i = NUMBER_WORDS.indexOf(word.toLowerCase());
  return i >= 0 ? i : Number(word);
};

/** Relative links of a Markdown text outside code: [text](target) and [ref]: target. */
function linksOf(text) {
  const prose = text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  const links = [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...prose.matchAll(/^\[[^\]]+\]:\s+(\S+)/gm)].map((m) => m[1]);
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link)); // not http:, mailto: …
}

test(`the README is at most ${README_MAX_LINES} lines`, () => {
  const lines = read('README.md').split('\n').length - 1;
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines`);
});

test('every relative link in the README and docs/ resolves, anchors included', () => {
  const broken = [];
  let checked = 0;
  for (const doc of DOCS) {
    for (const link of linksOf(read(doc))) {
      checked++;
      const [path, anchor] = link.split('#');
      const target = path ? join(ROOT, dirname(doc), decodeURIComponent(path)) : join(ROOT, doc);
      if (!existsSync(target)) { broken.push(`${doc}: ${link} (no such file)`); continue; }
      if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
        broken.push(`${doc}: ${link} (no heading "${anchor}" in ${relative(ROOT, target)})`);
      }
    }
  }
  assert.ok(checked > 20, `only ${checked} links found: is the link pattern still right?`);
  assert.deepEqual(broken, []);
});

test('the README links every document in docs/', () => {
  const readme = read('README.md');
  for (const doc of DOCS.filter((d) => d !== 'README.md')) assert.ok(readme.includes(`](${doc})`), `README does not link ${doc}`);
});

test('the code cites docs/ARCHITECTURE.md by sections that exist', () => {
  const anchors = anchorsOf(read('docs/ARCHITECTURE.md'));
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.(c|h)pp$|\.m?js$|\.mts$|\.ts$/.test(name)) files.push(path);
    }
  };
  for (const dir of ['src', 'web', 'tests', 'bench', 'cli', 'fuzz', 'types', 'scripts']) if (existsSync(join(ROOT, dir))) walk(dir);
  files.splice(files.indexOf(join('tests', 'js', 'docs.test.mjs')), 1); // its own comments show the pattern
  const cited = [];
  const missing = [];
  for (const file of files) {
    // docs/ARCHITECTURE.md, "Input" or docs/ARCHITECTURE.md ("Input") or docs/ARCHITECTURE.md's model ("Input").
    for (const [, section] of read(file).matchAll(/docs\/ARCHITECTURE\.md(?:'s \w+)?,? \(?"([^"]+)"/g)) {
      cited.push(section);
      if (!anchors.has(slug(section))) missing.push(`${file}: "${section}"`);
    }
  }
  assert.ok(cited.length >= 15, `only ${cited.length} citations found`);
  assert.deepEqual(missing, []);
});

/** A size the docs state for dist/FILE ("about RAW KB, GZIP KB gzipped") matches the built file within SIZE_TOLERANCE. */
function assertStatedSize(file, raw, gzip) {
  const bytes = readFileSync(join(ROOT, 'dist', file));
  const actual = { raw: bytes.length / 1024, gzip: gzipSync(bytes, { level: 9 }).length / 1024 };
  for (const [what, claimed] of [['raw', Number(raw)], ['gzip', Number(gzip)]]) {
    const off = Math.abs(claimed - actual[what]) / actual[what];
    assert.ok(off <= SIZE_TOLERANCE, `docs: ${file} ${what} "about ${claimed} KB", built ${actual[what].toFixed(1)} KB (${(off * 100).toFixed(1)}% off)`);
  }
}

test("the element's sizes and budget in the docs match the built files (sizes within 5%)", () => {
  const stated = [...ALL.matchAll(/`dist\/(posenc-lab(?:-worker|-standalone)?\.m?js)` \(about (\d+) KB, (\d+) KB gzipped(?:, within its (\d+) \/ (\d+) KB budget)?/g)];
  assert.deepEqual([...new Set(stated.map((m) => m[1]))].sort(), ['posenc-lab-standalone.js', 'posenc-lab-worker.mjs', 'posenc-lab.js', 'posenc-lab.mjs'],
    'a size for each element build, its worker and the one-file build');
  // The budgets' one home is scripts/bundle-element.mjs, which refuses a bundle over them.
  const bundler = read('scripts/bundle-element.mjs');
  const constant = (name) => Number(new RegExp(`${name} = (\\d+) \\* 1024`).exec(bundler)[1]);
  for (const [, file, raw, gzip, budgetRaw, budgetGzip] of stated) {
    assertStatedSize(file, raw, gzip);
    const budget = { raw: constant('BUDGET_RAW'), gzip: constant('BUDGET_GZIP') };
    if (budgetRaw) assert.deepEqual({ raw: Number(budgetRaw), gzip: Number(budgetGzip) }, budget, `${file}'s budget`);
  }
});

test("the lazy model core's size in the docs matches the built file (within 5%)", () => {
  const stated = [...ALL.matchAll(/`dist\/(posenc-models-simd\.wasm)` \(about (\d+) KB, (\d+) KB gzipped/g)];
  assert.ok(stated.length >= 1, 'the docs state the model core\'s size');
  for (const [, file, raw, gzip] of stated) assertStatedSize(file, raw, gzip);
});

test('scheme counts in the docs are the core table\'s', () => {
  const all = SCHEME_TABLE.schemes.length;
  const trainable = SCHEME_TABLE.trainable.length;
  const claims = [
    // "the eleven scheme names"; "the other eight schemes" and "Eight more schemes" beside the classic three.
    ...[...ALL.matchAll(/\b(other )?(\w+) (more )?(?:schemes|scheme names)\b/gi)].map((m) => [m[0], m[2], m[1] || m[3] ? 3 : 0]),
    ...[...ALL.matchAll(/\bany (?:three )?of (?:the )?(\w+)\b/gi)].filter((m) => /eleven|twelve|ten|nine/i.test(m[1])).map((m) => [m[0], m[1]]),
  ];
  let checked = 0;
  for (const [text, word, offset = 0] of claims) {
    const n = numberOf(word);
    if (!Number.isFinite(n) || n <= 3 || word.toLowerCase() === 'more') continue; // "three classic schemes", "more schemes"
    checked++;
    assert.ok(n + offset === all || n === trainable, `"${text}": the core has ${all} schemes, ${trainable} trainable`);
  }
  assert.ok(checked >= 3, `only ${checked} scheme counts found`);
  for (const name of SCHEME_TABLE.trainable) assert.ok(read('docs/ARCHITECTURE.md').includes(`\`${name}\``), `ARCHITECTURE.md's model config names ${name}`);
});

test("GloVe's vocabulary size and width in the docs are the shipped file's", async () => {
  const lab = await load();
  const glove = await lab.loadVectors('glove');
  try {
    // "over all 20,000 GloVe words", "decode against all 20,000 words", "the 20,000 most frequent words".
    const words = [...ALL.matchAll(/\ball\s+(\d{1,3}(?:,\d{3})+)\s+(?:GloVe\s+)?words\b|\b(\d{1,3}(?:,\d{3})+)\s+most\s+frequent\s+words\b/g)]
      .map((m) => Number((m[1] ?? m[2]).replaceAll(',', '')));
    assert.ok(words.length >= 3, `the docs state the vocabulary size (${words.length} found)`);
    for (const n of words) assert.equal(n, glove.size, `the docs say ${n} GloVe words`);
    assert.match(read('docs/API.md'), new RegExp(`// ${glove.dim}, ${glove.size}, RMS`), 'API.md example of glove.dim, glove.size');
    assert.equal(glove.dim, 100);
  } finally {
    glove.dispose();
  }
});

test('fuzz targets and test layers: the docs count what scripts/fuzz and scripts/test run', () => {
  const targets = /^targets=\(([^)]*)\)/m.exec(read('scripts/fuzz'))[1].trim().split(/\s+/);
  const sources = readdirSync(join(ROOT, 'fuzz')).filter((f) => /^fuzz_.*\.cpp$/.test(f));
  assert.equal(targets.length, sources.length, 'scripts/fuzz runs every fuzz/fuzz_*.cpp');
  const testing = read('docs/TESTING.md');
  const stated = [...ALL.matchAll(/\b(\w+) libFuzzer targets\b/g)].map((m) => numberOf(m[1]));
  assert.ok(stated.length >= 1, 'the docs state the number of fuzz targets');
  for (const n of stated) assert.equal(n, targets.length, `the docs say ${n} libFuzzer targets`);
  for (const t of targets) assert.ok(testing.includes(`fuzz_${t}`), `TESTING.md describes fuzz_${t}`);
  assert.match(testing, new RegExp(`libFuzzer \\(targets in fuzz/\\)\\s+${targets.length} passed`), 'the sample report');

  const layers = [...read('scripts/test').matchAll(/^echo "== (\d+)\/(\d+) /gm)];
  const total = Number(layers[0][2]);
  assert.equal(layers.length, total, 'scripts/test numbers its layers 1…N');
  // "the six test layers", "runs six layers" (spelled-out counts; "2 layers" elsewhere are a model's).
  const statedLayers = [...ALL.matchAll(/\b(\w+) (?:test )?layers\b/g)].filter((m) => NUMBER_WORDS.includes(m[1].toLowerCase())).map((m) => numberOf(m[1]));
  assert.ok(statedLayers.length >= 1, 'the docs state the number of layers');
  for (const n of statedLayers) assert.equal(n, total, `the docs say ${n} layers`);
});

test("the README's benchmark date is docs/BENCHMARKS.md's latest table", () => {
  const latest = /^## Latest table \(`\.\/scripts\/bench`, (\d{4}-\d{2}-\d{2})/m.exec(read('docs/BENCHMARKS.md'))?.[1];
  assert.ok(latest, "BENCHMARKS.md has a dated 'Latest table'");
  const stated = /Latest full run \((\d{4}-\d{2}-\d{2})\)/.exec(read('README.md'))?.[1];
  assert.equal(stated, latest);
});

test('the removed m.vocabulary property is not documented', () => {
  // One name for a model's words since 0.2.0: m.vocab (lab.vocabulary(rows, v, d), the decoding
  // vocabulary of the analyses, is another thing and stays).
  assert.doesNotMatch(ALL, /\bm\.vocabulary\b|have `vocabulary` and/);
});
