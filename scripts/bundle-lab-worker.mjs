// Bundles the page's lab worker (OUT_DIR/pipeline/lab-worker.js) with everything it imports into
// that one file, minified, with its source map beside it (lab-worker.js.map). Unbundled, the
// worker's module graph is fetched level by level (about ten round trips on a slow link) before
// it can ask for the core, the word vectors and the models; bundled, it is one request.
// Usage: node scripts/bundle-lab-worker.mjs OUT_DIR   (run by scripts/build on its staging copy of web/,
// after scripts/scheme-module.mjs has written OUT_DIR/scheme-table.mjs and before minify-page.mjs,
// which then leaves the bundle alone because it has a map)
//
// What stays outside: the Emscripten glue (posenc-{core,models}-{simd,scalar}.mjs), imported on
// demand, so that a browser fetches only its own flavour's. Its import is rewritten to the
// glue's path relative to the bundle (esbuild keeps an external path as it is given). And node:
// modules, which only the JS API's Node branch imports.
// Modules keep their own import.meta.url: each bundled module's is rewritten to the URL that
// module has in OUT_DIR, so every new URL('./file', import.meta.url) (web/cores.mjs: the wasm,
// GloVe, the models) names the same file as unbundled.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { shipLicences } from './bundled-licences.mjs';
import { browserBundle, loadEsbuild, sourcesFromRepository } from './esbuild-shared.mjs';

export const WORKER = 'pipeline/lab-worker.js';
const GLUE = /(^|\/)posenc-(core|models)-(simd|scalar)\.mjs$/;

/** An esbuild plugin: the glue external (path relative to bundleDir), each module's import.meta.url its own. */
export function workerPlugin(outDir, bundleDir) {
  const fromBundle = (path) => {
    const rel = relative(bundleDir, path).replaceAll('\\', '/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  return {
    name: 'posenc-lab-worker',
    setup(build) {
      build.onResolve({ filter: GLUE }, (args) => ({ path: fromBundle(resolve(args.resolveDir, args.path)), external: true }));
      build.onLoad({ filter: /\.m?js$/ }, async ({ path }) => {
        if (!resolve(path).startsWith(resolve(outDir))) return undefined;
        const text = await readFile(path, 'utf8');
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle(path))}, import.meta.url).href`),
          loader: 'js',
          resolveDir: dirname(path),
        };
      });
    },
  };
}

async function main(outDir) {
  const esbuild = await loadEsbuild('bundle-lab-worker');
  const outfile = join(outDir, WORKER);
  const { metafile } = await esbuild.build({
    ...browserBundle(),
    entryPoints: [outfile],
    outfile,
    plugins: [workerPlugin(outDir, dirname(outfile))],
  });
  await sourcesFromRepository(outfile, outDir);
  await shipLicences(metafile, process.cwd(), outDir, [outfile]);
  const modules = Object.keys(metafile.inputs).length;
  const bytes = metafile.outputs[Object.keys(metafile.outputs).find((k) => k.endsWith('.js'))].bytes;
  console.log(`bundle-lab-worker: ${WORKER}: ${modules} modules in one file, ${(bytes / 1024).toFixed(1)} KB minified`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const [outDir] = process.argv.slice(2);
  if (!outDir) {
    console.error('usage: node scripts/bundle-lab-worker.mjs OUT_DIR');
    process.exit(2);
  }
  await main(outDir);
}
