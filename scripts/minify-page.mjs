// Minifies the page's own scripts and stylesheets in OUT_DIR in place (esbuild's transform API,
// file by file) and writes a source map beside each (FILE.map, with the original text inside),
// named at the end of the file by a sourceMappingURL comment.
// Usage: node scripts/minify-page.mjs OUT_DIR   (run by scripts/build, last, on its staging copy of web/)
//
// File by file, no bundling: every file keeps its name and its imports, so the page's module
// graph, its workers (new Worker(new URL('./x.js', import.meta.url))), dynamic imports and the
// files named by new URL('./file', import.meta.url) are the same as in web/. Skipped: a file with
// a map beside it already (the esbuild bundles of scripts/bundle-element.mjs and
// scripts/bundle-page-modules.mjs, minified by their bundler), and the Emscripten glue, minified
// by emcc. The maps name each source by its path in the repository (web/…), so a browser's
// developer tools show it apart from the minified file of the same name.
import { readFile, readdir, writeFile, access } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { loadEsbuild } from './esbuild-shared.mjs';

// emcc's output, minified by emcc itself (scripts/build copies it in).
const EMSCRIPTEN_GLUE = /^posenc-(core|models)-(simd|scalar)\.mjs$/;
// Static import/export statements: such a file is a module, whose top-level names may be renamed.
// Without them the file may be a classic script (page/embed-mode.js), whose top level is global.
const MODULE_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s)/m;
// Comments that tell a consumer's bundler what to leave alone (import(/* webpackIgnore: true */ …)
// in cores.mjs keeps webpack from bundling node:fs). esbuild keeps them in place only when it
// keeps the line breaks, so such a file is minified but for its whitespace.
const BUNDLER_DIRECTIVE = /\/\*\s*(webpackIgnore|@vite-ignore)\b/;

/** The files minifyPage would rewrite, as paths relative to outDir. */
export async function pageSources(outDir) {
  const found = [];
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(m?js|css)$/.test(entry.name) || EMSCRIPTEN_GLUE.test(entry.name)) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    if (await access(`${path}.map`).then(() => true, () => false)) continue;
    found.push(relative(outDir, path));
  }
  return found.sort();
}

/**
 * Minifies one file's text → { code, map } (map: a JSON string). `sourcePath` is the name the
 * map gives the original, relative to the file's folder.
 */
export async function minifyOne(esbuild, text, name, sourcePath) {
  const css = name.endsWith('.css');
  const { code, map } = await esbuild.transform(text, {
    loader: css ? 'css' : 'js',
    minifySyntax: true,
    minifyIdentifiers: true,
    minifyWhitespace: !BUNDLER_DIRECTIVE.test(text),
    ...(css ? {} : { format: MODULE_SYNTAX.test(text) ? 'esm' : undefined, target: 'es2022' }),
    charset: 'utf8',
    legalComments: 'inline',  // licence headers (/*! … */, @license, @preserve) stay with their code
    sourcemap: 'external',
    sourcefile: sourcePath,
    sourcesContent: true,
  });
  const comment = css ? `/*# sourceMappingURL=${name}.map */` : `//# sourceMappingURL=${name}.map`;
  return { code: `${code}${comment}\n`, map };
}

async function main(outDir, sourceRoot) {
  const esbuild = await loadEsbuild('minify-page');
  let before = 0, after = 0;
  const files = await pageSources(outDir);
  for (const file of files) {
    const path = join(outDir, file);
    const text = await readFile(path, 'utf8');
    // The original's path in the repository (web/<file>), relative to where the map is served.
    const original = relative(dirname(path), join(sourceRoot, file)).replaceAll('\\', '/');
    const { code, map } = await minifyOne(esbuild, text, basename(file), original);
    await writeFile(path, code);
    await writeFile(`${path}.map`, map);
    before += Buffer.byteLength(text);
    after += Buffer.byteLength(code);
  }
  console.log(`minify-page: ${files.length} scripts and stylesheets, ${(before / 1024).toFixed(1)} → ${(after / 1024).toFixed(1)} KB, maps beside them`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [outDir, sourceRoot = 'web'] = process.argv.slice(2);
  if (!outDir) {
    console.error('usage: node scripts/minify-page.mjs OUT_DIR [SOURCE_ROOT]');
    process.exit(2);
  }
  await main(outDir, sourceRoot);
}
