// The page loads web/**/*.js as plain ES modules, and a browser cannot resolve a package name
// (`import … from 'd3-array'`) without an import map, which the page's CSP would refuse inline.
// So every page module that imports an npm package is rebuilt in OUT_DIR with that package's code
// inside it (esbuild); its imports of the page's own modules stay as they are, so no page module
// is duplicated. Modules without package imports are left untouched (scripts/minify-page.mjs
// minifies them after). Each bundle gets its source map beside it (FILE.map), naming the module by
// its path in the repository (web/…) and the packages by theirs (node_modules/…).
// Usage: node scripts/bundle-page-modules.mjs OUT_DIR   (run by scripts/build on its staging copy of web/)
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { shipLicences } from './bundled-licences.mjs';
import { loadEsbuild } from './esbuild-shared.mjs';

const [outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node scripts/bundle-page-modules.mjs OUT_DIR');
  process.exit(2);
}

const esbuild = await loadEsbuild('bundle-page-modules');

// A static import or re-export of a bare package name (not ./, ../, /, nor a scheme such as node:).
const PACKAGE_IMPORT = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](?![./]|[\w-]+:)([^'"]+)['"]/m;

const modules = [];
for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue;
  const path = join(entry.parentPath ?? entry.path, entry.name);
  if (PACKAGE_IMPORT.test(await readFile(path, 'utf8'))) modules.push(path);
}

const keepPageImports = {
  name: 'keep-page-imports',
  setup(build) {
    // Relative imports written in a page module; the packages' own relative imports are bundled.
    build.onResolve({ filter: /^\.\.?\// }, (args) => (
      args.kind === 'entry-point' || args.importer.includes('/node_modules/') ? undefined : { path: args.path, external: true }));
  },
};

for (const path of modules) {
  const { metafile } = await esbuild.build({
    entryPoints: [path],
    outfile: path,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,  // the packages' code is served as is, so it is sent small
    charset: 'utf8',
    legalComments: 'inline',  // the packages' licence headers travel with their code
    sourcemap: 'linked',
    sourcesContent: true,
    nodePaths: [join(process.cwd(), 'node_modules')],
    plugins: [keepPageImports],
    logLevel: 'warning',
    metafile: true,
  });
  await renameEntrySource(path, relative(outDir, path));
  // Their licence texts beside them (OUT_DIR/licences/), from what the metafile shows inside.
  const packages = await shipLicences(metafile, process.cwd(), outDir, [path]);
  console.log(`bundle-page-modules: ${relative(outDir, path)} now carries its npm imports (${packages.map((p) => p.name).join(', ')})`);
}

// esbuild names the entry by its own path, which is the bundle's too (it is rebuilt in place);
// the map names it by its source in the repository instead, web/<file>.
async function renameEntrySource(path, file) {
  const map = JSON.parse(await readFile(`${path}.map`, 'utf8'));
  const folder = dirname(path);
  map.sources = map.sources.map((source) => (resolve(folder, source) === resolve(path) ? relative(folder, join('web', file)).replaceAll('\\', '/') : source));
  await writeFile(`${path}.map`, JSON.stringify(map));
}
