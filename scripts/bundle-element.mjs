// Bundles the <posenc-lab> element (web/element.js) into one file, OUT/posenc-lab.js, with both
// wasm cores inside it (base64) and one copy of their Emscripten glue, then checks the budget.
// Usage: node scripts/bundle-element.mjs WASM_DIR OUT_DIR   (run by scripts/build)
//
// The output is a classic script (an IIFE), so it works as <script src> — the only kind a
// file:// page may load from a file:// path in Chromium — and as <script type="module">.
// import.meta.url (used by the JS API to find the word-vector file) becomes the script's own URL,
// found by web/element-url.js.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET_RAW = 400 * 1024;
const BUDGET_GZIP = 150 * 1024;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const [wasmDir, outDir] = process.argv.slice(2);
if (!wasmDir || !outDir) {
  console.error('usage: node scripts/bundle-element.mjs WASM_DIR OUT_DIR');
  process.exit(2);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.error('bundle-element: esbuild is missing (a dev dependency): run ./scripts/setup (npm ci) first');
  process.exit(1);
}

const core = (flavour, ext) => `${wasmDir}/posenc-core-${flavour}-embed.${ext}`;
// One glue serves both cores: Emscripten's glue depends on the bindings and link flags, which
// the two flavours share; only the .wasm file name differs. Refuse to bundle if that ever changes.
const [simdGlue, scalarGlue] = await Promise.all(['simd', 'scalar'].map((f) => readFile(core(f, 'mjs'), 'utf8')));
if (simdGlue.replaceAll('posenc-core-simd-embed', '@') !== scalarGlue.replaceAll('posenc-core-scalar-embed', '@')) {
  console.error('bundle-element: the SIMD and scalar glue files differ beyond their names; the element needs one glue per core now');
  process.exit(1);
}

const cores = {
  name: 'posenc-cores',
  setup(build) {
    build.onResolve({ filter: /^posenc:/ }, (args) => ({ path: args.path, namespace: 'posenc' }));
    build.onLoad({ filter: /.*/, namespace: 'posenc' }, async ({ path }) => {
      if (path === 'posenc:core-glue') {
        return { contents: simdGlue, loader: 'js', resolveDir: wasmDir };
      }
      const flavour = { 'posenc:wasm-simd': 'simd', 'posenc:wasm-scalar': 'scalar' }[path];
      if (!flavour) return { errors: [{ text: `unknown module ${path}` }] };
      // A base64 string, decoded only for the flavour that runs.
      return { contents: (await readFile(core(flavour, 'wasm'))).toString('base64'), loader: 'text' };
    });
  },
};

const outfile = `${outDir}/posenc-lab.js`;
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: ['web/element.js'],
  outfile,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  loader: { '.css': 'text' },
  define: { 'import.meta.url': 'posencScriptUrl' },
  inject: ['web/element-url.js'],
  // The JS API's Node and unbundled-core branches are never taken inside the bundle.
  external: ['node:*'],
  plugins: [cores],
  banner: { js: '/* PosEnc Lab <posenc-lab> element — MIT licence. GloVe vectors (PDDL) are fetched from glove-6b-100d-20k.i8 beside this file. */' },
  logLevel: 'warning',
  // posenc.mjs's default core loader imports posenc-core-<flavour>.mjs; the bundle installs its own.
  logOverride: { 'empty-glob': 'silent' },
});

const bytes = await readFile(outfile);
const gzip = gzipSync(bytes, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`bundle-element: posenc-lab.js ${kb(bytes.length)} (${kb(gzip)} gzipped; budget ${kb(BUDGET_RAW)} / ${kb(BUDGET_GZIP)})`);
if (bytes.length > BUDGET_RAW || gzip > BUDGET_GZIP) {
  console.error('bundle-element: posenc-lab.js is over its size budget');
  process.exit(1);
}
await stat(outfile);
