// Where a position in a built file of dist/ came from: its source map's original position, for the
// benches that name the page's functions (main-thread-profile.mjs, load-callbacks.mjs).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

/**
 * dist: a built dist/ folder. → async (path, line, column) → { source, line, column, name } or
 * null: path is a file's path in dist (its map is `${path}.map` beside it), line 1-based, column
 * 0-based, as source maps take them; source is the original file's path from the project's root
 * (web/…, node_modules/…). null where the file has no map or the map has no source there.
 */
export function sourcePositions(dist) {
  const maps = new Map(); // path → SourceMapConsumer, or null without a map
  return async (path, line, column) => {
    if (!maps.has(path)) {
      const text = await readFile(join(dist, `${path}.map`), 'utf8').catch(() => null);
      maps.set(path, text === null ? null : new SourceMapConsumer(JSON.parse(text)));
    }
    const at = maps.get(path)?.originalPositionFor({ line, column });
    return at?.source ? { ...at, source: at.source.replace(/^(\.\.\/)+/, '') } : null;
  };
}
