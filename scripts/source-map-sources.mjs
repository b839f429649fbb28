// A bundle's source map names each module by its path in the repository (web/…), not in the
// staging folder the build bundles from, so a debugger opens the file a developer edits.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

const slash = (path) => path.replaceAll('\\', '/');

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
