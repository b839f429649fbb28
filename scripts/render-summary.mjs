// Writes the summary's first words into OUT_DIR/index.html: the sentences the page's first view
// shows for the default link, made by the code the lab worker runs (lab-session.js, prose.js) on
// the same state (DEFAULTS, before GloVe has loaded: synthetic vectors), with placeholders where
// the analyses' numbers go. The page replaces them with that view's and then the analyses' words
// of the same length, so the summary has its height from the first paint and nothing below it
// moves as they come. The words are HTML-escaped; a span missing from index.html fails the build.
// Usage: node scripts/render-summary.mjs OUT_DIR   (run by scripts/build on its staging copy of web/)
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node scripts/render-summary.mjs OUT_DIR');
  process.exit(2);
}

const from = (path) => import(pathToFileURL(resolve(outDir, path)).href);
const { load } = await from('posenc.mjs');
const { createLabSession } = await from('pipeline/lab-session.js');
const { DEFAULTS } = await from('pipeline/state.js');

const lab = await load();
const session = createLabSession(lab);
// The page's trained heads are there when the build ships models (scripts/build's models/).
const trainedAvailable = existsSync(join(outDir, 'models', 'manifest.json'));
const { view } = session.compute({ state: DEFAULTS, trainedAvailable, trainedAsked: false, inputOnly: [] });
if (!view.summaries) throw new Error('render-summary: the default sentence gave no summary');

const escape = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const file = join(outDir, 'index.html');
let html = await readFile(file, 'utf8');
for (const [which, text] of Object.entries(view.summaries)) {
  const span = new RegExp(`(<li id="summary-${which}">[^<]*<span class="summary-text">)[^<]*(</span>)`);
  if (!span.test(html)) throw new Error(`render-summary: index.html has no #summary-${which} .summary-text to fill`);
  html = html.replace(span, (_, open, close) => `${open}${escape(text)}${close}`);
}
await writeFile(file, html);
