// Bundles the <posenc-lab> element (web/element/element.js) three times: OUT/posenc-lab.js, a
// classic script, OUT/posenc-lab.mjs, an ES module that also exports the element class (npm's
// `posenc-lab/element.mjs`, for bundlers and `import { PosencLabElement }`), and OUT/anywidget.mjs,
// the notebook widget (web/element/anywidget.mjs); and OUT/posenc-lab-worker.mjs, the element's lab
// worker with the SIMD core and the Emscripten glue inside (OUT/posenc-lab-core-scalar.mjs beside it
// holds the scalar core, which only a browser without wasm SIMD fetches). posenc-lab.mjs computes
// in that worker and holds no core; posenc-lab.js and anywidget.mjs, which must run with no other
// file, hold both cores and compute in their own thread (see below). Checks each against its budget
// (posenc-lab.mjs with its worker: one first load, one budget) and prints what the bytes are.
// Beside them, OUT/posenc-svg.mjs: the SVG writer, which the element fetches on a reader's first
// SVG export (outside the budget).
// Usage: node scripts/bundle-element.mjs WASM_DIR OUT_DIR   (run by scripts/build)
//
// posenc-lab.js is a classic script (an IIFE), so it works as <script src> — the only kind a
// file:// page may load from a file:// path in Chromium — and as <script type="module">; there
// import.meta.url (used by the JS API to find the word-vector file) becomes the script's own URL,
// found by web/element/element-url.js. posenc-lab.mjs keeps the real import.meta.url.
//
// In the one-file builds both cores travel as ONE LZMA stream (xz --format=lzma), SIMD core first,
// then base64 (the worker's two cores travel as a stream each, see posenc:cores);
// web/element/lzma.js decodes it. The two cores share most of their code, and LZMA's window spans the
// first core while it codes the second: measured here, one LZMA stream of both is ~45% smaller
// than two DEFLATE streams, and base64 of the bare wasm would gzip to ~1.3× the wasm's own gzip
// size (its 6-bit characters break up the byte patterns) where base64 of compressed bytes gzips
// to ~1.01× (the budget counts the gzip of the whole file). SIMD first: a SIMD browser decodes
// only the stream's first part. Base64 rather than a denser string: the script stays ASCII, so a
// host serving it with a wrong charset cannot corrupt the cores. Needs xz (Debian xz-utils).
import { readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { shipLicences } from './bundled-licences.mjs';
import { loadEsbuild } from './esbuild-shared.mjs';

const BUDGET_RAW = 400 * 1024;
const BUDGET_GZIP = 150 * 1024;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const [wasmDir, outDir] = process.argv.slice(2);
if (!wasmDir || !outDir) {
  console.error('usage: node scripts/bundle-element.mjs WASM_DIR OUT_DIR');
  process.exit(2);
}

const esbuild = await loadEsbuild('bundle-element');

const core = (flavour, ext) => `${wasmDir}/posenc-core-${flavour}-embed.${ext}`;
const modelCore = (flavour, ext) => `${wasmDir}/posenc-models-${flavour}.${ext}`;
// One glue serves both cores: Emscripten's glue depends on the bindings and link flags, which
// the two flavours share; only the .wasm file name differs. Refuse to bundle if that ever changes.
// The same holds for the model core's two flavours (inside posenc-lab-standalone.js).
async function oneGlue(file, name) {
  const [simd, scalar] = await Promise.all(['simd', 'scalar'].map((f) => readFile(file(f, 'mjs'), 'utf8')));
  if (simd.replaceAll(name('simd'), '@') !== scalar.replaceAll(name('scalar'), '@')) {
    console.error(`bundle-element: the SIMD and scalar glue files of ${name('…')} differ beyond their names; the element needs one glue per core now`);
    process.exit(1);
  }
  return simd;
}
const simdGlue = await oneGlue(core, (f) => `posenc-core-${f}-embed`);
const modelGlue = await oneGlue(modelCore, (f) => `posenc-models-${f}`);

// posenc:cores, per build: 'joint' (the one-file builds) holds both cores in one stream;
// 'split' (the worker) holds the SIMD core alone and imports the scalar one from SCALAR_CORE beside
// it, which only a browser without wasm SIMD asks for (web/element/embedded-core.js).
const SCALAR_CORE = 'posenc-lab-core-scalar.mjs';
const cores = (mode) => ({
  name: 'posenc-cores',
  setup(build) {
    build.onResolve({ filter: /^posenc:/ }, (args) => ({ path: args.path, namespace: 'posenc' }));
    build.onResolve({ filter: new RegExp(`^\\./${SCALAR_CORE.replaceAll('.', '\\.')}$`) }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'posenc' }, async ({ path }) => {
      if (path === 'posenc:core-glue') {
        return { contents: simdGlue, loader: 'js', resolveDir: wasmDir };
      }
      if (path === 'posenc:model-glue') return { contents: modelGlue, loader: 'js', resolveDir: wasmDir };
      if (path === 'posenc:model-cores') {
        packedModels ??= await packCores(modelCore);
        return { contents: `export default { simd: ${packedModels.simd}, scalar: ${packedModels.scalar}, data: ${JSON.stringify(packedModels.joint)} };`, loader: 'js' };
      }
      if (path !== 'posenc:cores') return { errors: [{ text: `unknown module ${path}` }] };
      packed ??= await packCores();
      // Decoded (base64, then LZMA, to the wasm bytes) only when a core is first loaded.
      const { simd, scalar, joint, simdAlone } = packed;
      return {
        contents: mode === 'joint'
          ? `export default { simd: ${simd}, scalar: ${scalar}, data: ${JSON.stringify(joint)} };`
          : `export default { simd: ${simd}, data: ${JSON.stringify(simdAlone)}, scalar: ${scalar}, scalarStream: () => import('./${SCALAR_CORE}') };`,
        loader: 'js',
      };
    });
  },
});
let packed; // packed once, shared by every build
let packedModels; // the model cores, packed likewise (posenc-lab-standalone.js only)

// Stylesheets are imported as text (the element adopts them into its shadow root), minified first:
// comments and indentation are no use inside the bundle.
// d3-scale-chromatic builds every colour map at module level (`ramp(colors("…"))`), which a
// bundler must keep: its viridis.js holds magma, inferno and plasma too (about 2 KB gzipped).
// Read with those calls marked pure, the maps the element never imports are left out (and with
// RdBu's interpolator, d3-interpolate and d3-color); the packages' files are untouched.
const PURE_CALLS = [
  { file: /d3-scale-chromatic[\\/]src[\\/].*\.js$/, call: /\bramp\((colors\(|scheme\))/g, pure: (_, arg) => `/* @__PURE__ */ ramp(${arg === 'scheme)' ? arg : '/* @__PURE__ */ colors('}` },
];
const pureColourMaps = {
  name: 'pure-colour-maps',
  setup(build) {
    for (const { file, call, pure } of PURE_CALLS) {
      build.onLoad({ filter: file }, async ({ path }) => ({
        contents: (await readFile(path, 'utf8')).replace(call, pure),
        loader: 'js',
        resolveDir: dirname(path),
      }));
    }
  },
};

const minifiedCss = {
  name: 'posenc-minified-css',
  setup(build) {
    build.onLoad({ filter: /\.css$/ }, async ({ path }) => {
      const { code } = await esbuild.transform(await readFile(path, 'utf8'), { loader: 'css', minify: true });
      return { contents: code, loader: 'text' };
    });
  },
};

// The scheme table the build wrote into OUT_DIR (scripts/scheme-module.mjs): the sources import it
// as a sibling of web/posenc.mjs, where it is never written.
const schemeTable = {
  name: 'posenc-scheme-table',
  setup(build) {
    build.onResolve({ filter: /(^|\/)scheme-table\.mjs$/ }, () => ({ path: resolve(outDir, 'scheme-table.mjs') }));
  },
};

// Both cores as one stream (SIMD first, so it decodes alone from the stream's start), the SIMD
// core alone, and the scalar core alone; each base64.
async function packCores(file = core) {
  const [simd, scalar] = await Promise.all(['simd', 'scalar'].map((f) => readFile(file(f, 'wasm'))));
  // lp=0 and lc=4 (the best of 0…4). pb, the position bits, has no best value for wasm code: one
  // core change turned pb=0's 59-byte lead over pb=1 on the SIMD core into a 398-byte loss. So each
  // stream takes the smallest of pb = 0, 1 and 2 (the stream's header names it for the decoder).
  const pack = (bytes) => [0, 1, 2].map((pb) => xz(bytes, `preset=9e,lc=4,lp=0,pb=${pb},nice=273,dict=1MiB`))
    .reduce((best, packed) => (packed.length < best.length ? packed : best)).toString('base64');
  return { simd: simd.length, scalar: scalar.length, joint: pack(Buffer.concat([simd, scalar])), simdAlone: pack(simd), scalarAlone: pack(scalar) };
}

function xz(bytes, options) {
  try {
    return execFileSync('xz', ['--format=lzma', `--lzma1=${options}`, '--stdout'], { input: bytes, maxBuffer: 1 << 26 });
  } catch (error) {
    console.error(`bundle-element: xz failed (${error.code === 'ENOENT' ? 'not installed: apt-get install xz-utils' : error.message})`);
    process.exit(1);
  }
}

// The JS API's default loaders (web/cores.mjs, imported by posenc.mjs and its parts beside it)
// become the element's (web/element/element-loaders.mjs): the core inside, the model core and model.mjs
// fetched beside the element's file (external imports). In posenc-lab-standalone.js they become
// web/element/standalone-loaders.mjs (the model core and model.mjs inside too), and the model side
// (web/element/model-runner.js) is bundled in rather than fetched (model-runner-inside.js).
const elementCores = (loaders = 'element-loaders.mjs') => ({
  name: 'posenc-element-cores',
  setup(build) {
    build.onResolve({ filter: /^\.\/cores\.mjs$/ }, (args) =>
      (/[\\/]web[\\/][^\\/]+\.mjs$/.test(args.importer) ? { path: resolve(ROOT, `web/element/${loaders}`) } : undefined));
    if (loaders === 'standalone-loaders.mjs') {
      build.onResolve({ filter: /^\.\/model-runner-loader\.js$/ }, () => ({ path: resolve(ROOT, 'web/element/model-runner-inside.js') }));
    }
    build.onResolve({ filter: /^\.\/(posenc-models-(simd|scalar)|model)\.mjs$/ }, (args) =>
      (args.importer.endsWith('/web/element/element-loaders.mjs') ? { path: args.path, external: true } : undefined));
  },
});

// The SVG writer likewise: web/figures/svg-loader.js becomes web/element/svg-writer-beside.js, which
// fetches SVG_WRITER (web/figures/svg-writer.js, bundled alone below) beside the element's file.
const SVG_WRITER = 'posenc-svg.mjs';
// The live trainer likewise (web/element/train-runner.js, bundled alone below): fetched by
// web/element/train-runner-loader.js when a reader first presses Train live.
const TRAIN_RUNNER = 'posenc-train-live.mjs';
// The model side of model-src likewise (web/element/model-runner.js, bundled alone below): fetched
// by web/element/model-runner-loader.js when an element is first given a model.
const MODEL_RUNNER = 'posenc-model-heads.mjs';
// The element in one file with the model core, the model side and the SVG writer inside: for pages that have no
// folder to fetch from (an HTML file opened alone, a notebook output's iframe srcdoc: the PyTorch
// twin's show()). Not a first load: it is never fetched by a page that uses posenc-lab.js.
const STANDALONE = 'posenc-lab-standalone.js';
const elementSvgWriter = {
  name: 'posenc-element-svg-writer',
  setup(build) {
    build.onResolve({ filter: /^\.\/svg-loader\.js$/ }, (args) =>
      (args.importer.endsWith('/web/figures/export.js') ? { path: resolve(ROOT, 'web/element/svg-writer-beside.js') } : undefined));
    const beside = (file, loader) => build.onResolve({ filter: new RegExp(`^\\./${file.replace('.', '\\.')}$`) }, (args) =>
      (args.importer.endsWith(loader) ? { path: args.path, external: true } : undefined));
    beside(SVG_WRITER, '/web/element/svg-writer-beside.js');
    beside(TRAIN_RUNNER, '/web/element/train-runner-loader.js');
    beside(MODEL_RUNNER, '/web/element/model-runner-loader.js');
  },
};

// The lab worker (web/element/lab-worker.js: the page's web/pipeline/lab-worker.js, a session per
// element, over the cores), bundled first. posenc-lab.mjs starts it from its file beside
// the script (web/element/client-worker.js) and holds no core: its main thread computes nothing.
// posenc-lab.js and anywidget.mjs must run with no other file (a file:// page may fetch nothing;
// anywidget's blob: module has no folder), and a copy of the worker's code inside them took them
// past the budget (about 153 KB gzipped, measured here): they run the same sessions in the page's
// thread (web/element/client-local.js), with the cores inside.
const WORKER = 'posenc-lab-worker.mjs';
const labClient = (where) => ({
  name: 'posenc-element-client',
  setup(build) {
    build.onResolve({ filter: /^posenc:element-client$/ }, () => ({ path: resolve(ROOT, `web/element/client-${where}.js`) }));
    // Imported for its effect alone (installing the core loader), which package.json's sideEffects
    // list (meant for npm users of dist/) would have esbuild drop.
    build.onResolve({ filter: /^\.\/embedded-core\.js$/ }, (args) => ({ path: resolve(args.resolveDir, args.path), sideEffects: true }));
    build.onResolve({ filter: /^\.\.\/pipeline\/lab-worker\.js$/ }, (args) =>
      (args.importer.endsWith('/web/element/lab-worker.js') ? { path: resolve(args.resolveDir, args.path), sideEffects: true } : undefined));
  },
});

// What only the page uses (web/element/page-only.js stands in): the shipped models' client and
// host, the summary's sentences and numbers, the nearest words. Each is replaced only where the lab's client, worker or
// measures import it.
const PAGE_ONLY = [
  { file: /^\.\/model-client\.js$/, importer: '/web/pipeline/lab-client.js' },
  { file: /^\.\/lab-worker-url\.js$/, importer: '/web/pipeline/lab-client.js' },
  { file: /^\.\/model-host\.js$/, importer: '/web/pipeline/lab-serve.js' },
  { file: /^\.\/lab-summaries\.js$/, importer: '/web/pipeline/lab-measures.js' },
  { file: /^\.\/statistics\.js$/, importer: '/web/pipeline/lab-session.js' },
  { file: /^\.\/measures\/neighbors\.js$/, importer: '/web/pipeline/lab-measures.js' },
];
const pageOnly = {
  name: 'posenc-page-only',
  setup(build) {
    for (const { file, importer } of PAGE_ONLY) {
      build.onResolve({ filter: file }, (args) => (args.importer.endsWith(importer) ? { path: resolve(ROOT, 'web/element/page-only.js') } : undefined));
    }
  },
};

const BUILDS = [
  {
    outfile: `${outDir}/posenc-lab.js`,
    format: 'iife',
    define: { 'import.meta.url': 'posencScriptUrl', POSENC_CLASSIC_SCRIPT: 'true' },
    inject: ['web/element/element-url.js'],
    client: 'local',
  },
  { outfile: `${outDir}/posenc-lab.mjs`, format: 'esm', define: { POSENC_CLASSIC_SCRIPT: 'false' }, client: 'worker' },
  // The notebook widget (web/element/anywidget.mjs): the element and its worker inside, so it needs
  // no other file (but the model core, which its Train button fetches beside it).
  { outfile: `${outDir}/anywidget.mjs`, format: 'esm', entry: 'web/element/anywidget.mjs', define: { POSENC_CLASSIC_SCRIPT: 'false' }, client: 'local' },
];

const worker = await bundle({ outfile: `${outDir}/${WORKER}`, format: 'esm', entry: 'web/element/lab-worker.js', define: { POSENC_CLASSIC_SCRIPT: 'false' },
  subject: "<posenc-lab> element's lab worker", glove: false, coreStreams: 'split', budgeted: false, unbudgetedNote: 'counted with posenc-lab.mjs' });
const built = [];
for (const build of BUILDS) built.push(await bundle(build));
// posenc-lab.mjs's first figure needs itself and the worker beside it: together, one budget.
const moduleFirstLoad = built[1].gzip + worker.gzip;
console.log(`bundle-element: posenc-lab.mjs + ${WORKER}: ${kb(moduleFirstLoad)} gzipped in all; budget ${kb(BUDGET_GZIP)}`);
built.push({ overBudget: moduleFirstLoad > BUDGET_GZIP });
// The scalar core, fetched by the worker only in a browser without wasm SIMD.
await writeScalarCore(`${outDir}/${SCALAR_CORE}`);
// The SVG writer, fetched on a reader's first SVG export: not part of the first load's budget.
await bundle({ outfile: `${outDir}/${SVG_WRITER}`, format: 'esm', entry: 'web/figures/svg-writer.js', budgeted: false, subject: "<posenc-lab> element's SVG writer", glove: false });
// The live trainer, fetched when a reader first presses Train live: not part of the first load either.
await bundle({ outfile: `${outDir}/${TRAIN_RUNNER}`, format: 'esm', entry: 'web/element/train-runner.js', define: { POSENC_CLASSIC_SCRIPT: 'false' }, budgeted: false, subject: "<posenc-lab> element's live trainer", glove: false });
// The model side, fetched when an element is first given a model-src: not part of the first load.
await bundle({ outfile: `${outDir}/${MODEL_RUNNER}`, format: 'esm', entry: 'web/element/model-runner.js', define: { POSENC_CLASSIC_SCRIPT: 'false' }, budgeted: false, subject: "<posenc-lab> element's model heads", glove: false });
// The one-file element with the model core inside (see STANDALONE): outside the first-load budget.
await bundle({ ...BUILDS[0], outfile: `${outDir}/${STANDALONE}`, oneFile: true, budgeted: false, subject: '<posenc-lab> element, one file with the model core',
  unbudgetedNote: 'one file for pages with no folder, not a first load' });
await printBreakdown(worker.metafile);
await printBreakdown(built[0].metafile);
if (built.some(({ overBudget }) => overBudget)) {
  console.error('bundle-element: an element bundle is over its size budget');
  process.exit(1);
}

async function bundle({ outfile, format, define = {}, inject = [], entry = 'web/element/element.js', budgeted = true, subject = '<posenc-lab> element', glove = true, client = 'worker', coreStreams = 'joint', unbudgetedNote = 'loaded on demand', oneFile = false }) {
  const { metafile, outputFiles } = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format,
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'ascii',  // esbuild's default, stated: non-ASCII text is escaped, so a wrong charset cannot alter the script
    loader: { '.css': 'text' },
    define,
    inject,
    // The JS API's Node and unbundled-core branches are never taken inside the bundle.
    external: ['node:*'],
    plugins: [labClient(client), pageOnly, cores(coreStreams), schemeTable, minifiedCss, pureColourMaps,
      // oneFile: the model core, the model side and the SVG writer inside, none fetched beside it.
      ...(oneFile ? [elementCores('standalone-loaders.mjs')] : [elementCores(), elementSvgWriter])],
    metafile: true,
    write: false,  // written below, under a banner naming the packages the metafile shows inside
    sourcemap: 'external',
    sourcesContent: true,
    logLevel: 'warning',
  });
  // Every bundled npm package by name, version and licence; their texts go to licences/.
  const packages = await shipLicences(metafile, ROOT, outDir, [outfile]);
  const included = packages.map(({ name, version, licence }) => `${name} ${version} (${licence} licence)`).join(', ');
  const banner = `/* PosEnc Lab ${subject} - MIT licence. ${included ? `Includes ${included}: their licence texts are in licences/ beside this file. ` : ''}` +
    `${glove ? 'GloVe vectors (PDDL) are fetched from glove-6b-100d-20k.i8 beside this file. ' : ''}*/\n`;
  const name = outfile.slice(outfile.lastIndexOf('/') + 1);
  const code = outputFiles.find((file) => file.path.endsWith(name)).contents;
  await writeFile(outfile, Buffer.concat([Buffer.from(banner), code, Buffer.from(`//# sourceMappingURL=${name}.map\n`)]));
  await writeFile(`${outfile}.map`, sourceMap(outputFiles.find((file) => file.path.endsWith(`${name}.map`)).text));
  const bytes = await readFile(outfile);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  console.log(`bundle-element: ${name} ${kb(bytes.length)} (${kb(gzip)} gzipped${budgeted ? `; budget ${kb(BUDGET_RAW)} / ${kb(BUDGET_GZIP)}` : `, ${unbudgetedNote}`})`);
  return { metafile, gzip, overBudget: budgeted && (bytes.length > BUDGET_RAW || gzip > BUDGET_GZIP) };
}

// SCALAR_CORE: the scalar core's stream, base64, as a module's default export. Its map maps
// nothing (the string is data, not source); it is there so that every script in dist/ has one,
// and scripts/minify-page.mjs leaves the file alone.
async function writeScalarCore(outfile) {
  packed ??= await packCores();
  const name = outfile.slice(outfile.lastIndexOf('/') + 1);
  const text = `/* PosEnc Lab <posenc-lab> element's scalar core (for browsers without wasm SIMD) - MIT licence. */\nexport default ${JSON.stringify(packed.scalarAlone)};\n//# sourceMappingURL=${name}.map\n`;
  await writeFile(outfile, text);
  await writeFile(`${outfile}.map`, JSON.stringify({ version: 3, file: name, sources: [], sourcesContent: [], names: [], mappings: '' }));
  const gzip = gzipSync(text, { level: 9 }).length;
  console.log(`bundle-element: ${SCALAR_CORE} ${kb(text.length)} (${kb(gzip)} gzipped, loaded only without wasm SIMD)`);
}

// The bundle's map, shifted one line down for the banner (a leading ';' is one generated line
// without mappings). The packed cores (and model cores) are a base64 string, not source: their text is left out.
function sourceMap(text) {
  const map = JSON.parse(text);
  map.mappings = `;${map.mappings}`;
  map.sourcesContent = map.sourcesContent?.map((content, i) => (map.sources[i].startsWith('posenc:') && /:(model-)?cores$/.test(map.sources[i]) ? null : content));
  return JSON.stringify(map);
}

function kb(n) { return `${(n / 1024).toFixed(1)} KB`; }

// What the bytes are: each part's bytes in the bundle (esbuild's metafile) and its size when
// gzipped alone (JS minified alone first). Parts gzip a little worse alone than inside the
// whole file, so the column adds up to a little more than the total.
async function printBreakdown(metafile) {
  const [output] = Object.keys(metafile.outputs).filter((path) => !path.endsWith('.map'));
  console.log(`bundle-element: what ${output.slice(output.lastIndexOf('/') + 1)} holds`);
  const inputs = metafile.outputs[output].inputs;
  const groups = new Map();
  const add = (name, inBundle, text) => {
    const group = groups.get(name) ?? { inBundle: 0, texts: [] };
    group.inBundle += inBundle;
    group.texts.push(text);
    groups.set(name, group);
  };
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    if (path === 'posenc:posenc:cores') {
      const { simd, scalar, joint, simdAlone } = packed;
      const data = bytesInOutput > simdAlone.length + 100 ? joint : simdAlone;
      const what = data === joint ? `both cores (wasm ${kb(simd)} SIMD + ${kb(scalar)} scalar` : `the SIMD core (wasm ${kb(simd)}`;
      add(`${what}, LZMA ${kb(data.length * 0.75)}, base64)`, bytesInOutput, data);
    } else if (path === 'posenc:posenc:core-glue') {
      add('Emscripten glue (one for both cores)', bytesInOutput, await minified(simdGlue));
    } else if (path.endsWith('.css') || path.endsWith('.json')) {
      add(path, bytesInOutput, await readFile(path, 'utf8'));
    } else {
      const name = path.startsWith('web/panels/') ? 'web/panels/*.js' : path;
      add(name, bytesInOutput, await minified(await readFile(path, 'utf8')));
    }
  }
  const rows = [...groups].map(([name, { inBundle, texts }]) => [name, inBundle, gzipSync(texts.join('\n'), { level: 9 }).length]);
  rows.sort((a, b) => b[2] - a[2]);
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`  ${'part'.padEnd(width)}  in bundle  gzip alone`);
  for (const [name, inBundle, gz] of rows) console.log(`  ${name.padEnd(width)}  ${kb(inBundle).padStart(9)}  ${kb(gz).padStart(10)}`);
}

async function minified(source) {
  const { code } = await esbuild.transform(source, {
    minify: true, format: 'esm', target: 'es2022', legalComments: 'none', define: { 'import.meta.url': 'posencScriptUrl' },
  });
  return code;
}
