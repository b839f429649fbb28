// What the build's esbuild steps share: loading esbuild, the options of a minified browser bundle,
// and source maps that name each module by its path in the repository (web/…), not in the staging
// folder the build bundles from, so a debugger opens the file a developer edits.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

const slash = (path) => path.replaceAll('\\', '/');

/** esbuild (a dev dependency); without it, says so as `tool` and exits with status 1. */
export async function loadEsbuild(tool) {
  try {
    return await import('esbuild');
  } catch {
    console.error(`${tool}: esbuild is missing (a dev dependency): run ./scripts/setup (npm ci) first`);
    process.exit(1);
  }
}

/**
 * The options every minified browser bundle of the page takes: ES modules for es2022, UTF-8,
 * licence comments kept inline, linked source maps with their text, npm packages from the
 * checkout's node_modules. `node:*` stays external: web/cores.mjs's Node-only branch (reading
 * file: URLs) is never taken in a browser.
 */
export const browserBundle = () => ({
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  charset: 'utf8',
  legalComments: 'inline',
  sourcemap: 'linked',
  sourcesContent: true,
  nodePaths: [join(process.cwd(), 'node_modules')],
  external: ['node:*'],
  logLevel: 'warning',
  metafile: true,
});

/** Rewrites `${output}.map`: sources under outDir become paths to web/, with their text from there. */
export async function sourcesFromRepository(output, outDir) {
  const map = JSON.parse(await readFile(`${output}.map`, 'utf8'));
  const folder = dirname(output);
  // The import.meta.url rewrite changed a few lines' text: the map holds each module's own text
  // (read from web/; the columns after a rewrite on its line are off by the rewrite's length).
  map.sources = map.sources.map((source) => {
    const inOut = slash(relative(outDir, resolve(folder, source)));
    return inOut.startsWith('..') ? source : slash(relative(folder, join('web', inOut)));
  });
  map.sourcesContent = await Promise.all(map.sources.map((source, i) => readFile(resolve(folder, source), 'utf8').catch(() => map.sourcesContent[i])));
  await writeFile(`${output}.map`, JSON.stringify(map));
}
