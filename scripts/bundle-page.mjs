// Bundles the page (OUT_DIR/index.html's module scripts) so that a reader's browser fetches its
// code in a few requests, not level by level through some sixty modules (about a dozen round trips
// on a slow link, six requests at a time over HTTP/1.1, before the page can start its lab worker).
// Usage: node scripts/bundle-page.mjs OUT_DIR   (run by scripts/build on its staging copy of web/,
// before bundle-page-modules.mjs and minify-page.mjs, which leave files with a map alone)
//
// Entries: each <script type="module" src> of index.html, and every page module one of them loads
// on demand (import(): the Train section, the vector picker, the SVG writer), found by following
// the bundles' dynamic imports. Each entry is rewritten in place, its static imports inside; code
// that several entries share goes to OUT_DIR/chunks/. So a module loaded on demand is still
// fetched on demand, under its own name, and no module runs twice.
// Left as they are: the JS API's own files (OUT_DIR/*.mjs, e.g. posenc.mjs, imported on demand by
// the vector picker: a public file of the package) and node: modules.
// Each module keeps its own import.meta.url (rewritten to the URL it has in OUT_DIR, from wherever
// its code lands), so new URL('./file', import.meta.url) names the same file as unbundled.
// The npm packages inside (d3) ship their licences (scripts/bundled-licences.mjs).
// index.html names no chunk as <link rel="modulepreload">: preloaded, the chunks arrived and were
// compiled while Chromium laid out the page's first frame, the load's longest task already (it
// waits for the browser's answers to font lookups), and on two cores they lengthened it; found
// through the scripts that import them, they come a round trip later, which the first load over a
// 10 Mbit/s link does not show (docs/BENCHMARKS.md, round 40).
// The files the page runs as it loads (index.html's scripts and the chunks they import, not what
// is loaded on demand) open with V8's compile hint, `//# allFunctionsCalledOnLoad` (Chromium 136
// on; other engines read a comment): their functions are then compiled as each file streams in,
// on a background thread, not one by one on the main thread as each is first called, inside the
// load's tasks, the first view's among them (docs/BENCHMARKS.md, round 41).
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { shipLicences } from './bundled-licences.mjs';
import { browserBundle, loadEsbuild, sourcesFromRepository } from './esbuild-shared.mjs';

const PAGE = 'index.html';
const CHUNKS = 'chunks';
const slash = (path) => path.replaceAll('\\', '/');
const dotted = (rel) => (rel.startsWith('.') ? rel : `./${rel}`);

/** index.html's module scripts, as paths relative to outDir. */
export function moduleScripts(html) {
  return [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
}

// The JS API's files at the top of OUT_DIR stay outside every bundle when imported on demand.
const isApiFile = (outDir, path) => dirname(resolve(path)) === resolve(outDir) && path.endsWith('.mjs');

function options(outDir, entries, plugins) {
  return {
    ...browserBundle(),
    absWorkingDir: process.cwd(),
    entryPoints: entries.map((e) => join(outDir, e)),
    outdir: outDir,
    outbase: outDir,
    entryNames: '[dir]/[name]',
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    splitting: true,
    plugins,
  };
}

// The folder each input's code lands in: input path → output folder (absolute), from a metafile.
// (A chunk's name has a hash of its contents, which the rewrite below changes; its folder stays.)
function landing(metafile) {
  const at = new Map();
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (output.endsWith('.map')) continue;
    for (const input of Object.keys(inputs)) at.set(resolve(input), dirname(resolve(output)));
  }
  return at;
}

// The plugin: JS API files imported on demand external (their path from where the importer lands),
// each module's import.meta.url its own. at: landing() of a first build, or null (that first build).
// A static import of another entry (app.js importing lab-start.js, both index.html's scripts)
// stays an import of that entry's file, so that each entry's code stays in its own file.
function pagePlugin(outDir, entries, at, found) {
  const from = (importer) => at?.get(resolve(importer)) ?? dirname(resolve(importer));
  const entryPaths = new Set(entries.map((e) => resolve(outDir, e)));
  return {
    name: 'posenc-page',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        if (args.kind === 'import-statement' && entryPaths.has(path)) return { path: dotted(slash(relative(from(args.importer), path))), external: true };
        if (args.kind !== 'dynamic-import') return undefined;
        if (isApiFile(outDir, path)) return { path: dotted(slash(relative(from(args.importer), path))), external: true };
        found.add(slash(relative(outDir, path)));
        return undefined;
      });
      build.onLoad({ filter: /\.m?js$/ }, async ({ path }) => {
        if (!resolve(path).startsWith(resolve(outDir))) return undefined;
        const text = await readFile(path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const own = dotted(slash(relative(from(path), path)));
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: 'js', resolveDir: dirname(path) };
      });
    },
  };
}

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The outputs the page loads as it starts (absolute paths): the entries index.html names and,
 * transitively, what they import statically. metafile: the writing build's; scripts: index.html's.
 */
export function startupOutputs(metafile, scripts, outDir) {
  const byEntry = new Map();
  for (const [output, info] of Object.entries(metafile.outputs)) {
    if (info.entryPoint) byEntry.set(resolve(info.entryPoint), output);
  }
  const queue = scripts.map((script) => byEntry.get(resolve(outDir, script)));
  if (queue.some((output) => !output)) throw new Error(`bundle-page: an entry of ${PAGE} has no output: ${scripts.join(', ')}`);
  const seen = new Set();
  while (queue.length) {
    const output = queue.shift();
    if (seen.has(output)) continue;
    seen.add(output);
    for (const { path, kind } of metafile.outputs[output].imports) {
      if (kind === 'import-statement' && metafile.outputs[path]) queue.push(path);
    }
  }
  return [...seen].map((output) => resolve(output));
}

/** Puts COMPILE_HINT on the first line of `file`, its source map's lines moved down one. */
async function addCompileHint(file) {
  const text = await readFile(file, 'utf8');
  if (text.startsWith(COMPILE_HINT)) return;
  await writeFile(file, `${COMPILE_HINT}\n${text}`);
  const map = JSON.parse(await readFile(`${file}.map`, 'utf8'));
  map.mappings = `;${map.mappings}`;
  await writeFile(`${file}.map`, JSON.stringify(map));
}

async function main(outDir) {
  const esbuild = await loadEsbuild('bundle-page');
  // The entries: the page's scripts, then what they import on demand, until nothing new turns up.
  const scripts = moduleScripts(await readFile(join(outDir, PAGE), 'utf8'));
  let entries = scripts;
  let metafile;
  for (;;) {
    const found = new Set();
    ({ metafile } = await esbuild.build({ ...options(outDir, entries, [pagePlugin(outDir, entries, null, found)]), write: false }));
    const more = [...found].filter((e) => !entries.includes(e));
    if (!more.length) break;
    entries = [...entries, ...more];
  }
  // Written with each module's import.meta.url and on-demand API imports as seen from where its code landed.
  const written = await esbuild.build(options(outDir, entries, [pagePlugin(outDir, entries, landing(metafile), new Set())]));
  const check = landing(written.metafile);
  for (const [input, output] of landing(metafile)) {
    if (check.get(input) !== output) throw new Error(`bundle-page: ${input} landed in ${check.get(input)}, not ${output}, in the second build`);
  }
  const outputs = Object.keys(written.metafile.outputs).filter((o) => !o.endsWith('.map')).map((o) => resolve(o));
  for (const output of outputs) await sourcesFromRepository(output, outDir);
  const startup = startupOutputs(written.metafile, scripts, outDir);
  for (const output of startup) await addCompileHint(output);
  await shipLicences(written.metafile, process.cwd(), outDir, outputs);
  const kb = outputs.reduce((sum, o) => sum + written.metafile.outputs[slash(relative(process.cwd(), o))].bytes, 0) / 1024;
  console.log(`bundle-page: ${entries.join(', ')}: ${Object.keys(written.metafile.inputs).length} modules in ${outputs.length} files (${kb.toFixed(1)} KB minified), ${startup.length} with the compile hint`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const [outDir] = process.argv.slice(2);
  if (!outDir) {
    console.error('usage: node scripts/bundle-page.mjs OUT_DIR');
    process.exit(2);
  }
  await main(outDir);
}
