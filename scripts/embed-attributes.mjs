// Writes the attribute reference of dist/embed.html from dist/custom-elements.json, which the
// analyzer makes from the JSDoc on web/element/element.js's class: one source for the attribute docs.
// Also lists the element's files with their sizes as built, for the guide's download links.
//   node scripts/embed-attributes.mjs <dir>   (dir holds embed.html, custom-elements.json, scheme-table.mjs)
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MARKER = '<!-- attribute rows: scripts/embed-attributes.mjs -->';
const FILES_MARKER = '<!-- element files: scripts/embed-attributes.mjs -->';
const ROOT = fileURLToPath(new URL('../', import.meta.url));

// The files a host page may need, in the order the guide lists them; `from` is where the file is
// when this script runs (the fallback picture is copied into dist/ after it).
const ELEMENT_FILES = [
  { name: 'posenc-lab.js', what: 'the element, a classic script with both wasm cores inside, computing in the page\'s thread: all most pages need' },
  { name: 'glove-6b-100d-20k.i8', what: 'the GloVe word vectors (PDDL), fetched from beside the script; without it the figures use synthetic vectors and say so' },
  { name: 'posenc-svg.mjs', what: 'the SVG writer, fetched from beside the script the first time a reader exports a figure as SVG (controls="export")' },
  { name: 'posenc-train-live.mjs', what: 'the live trainer, fetched from beside the script the first time a reader presses Train live (panel="train"), with the model core and the book beside it' },
  { name: 'posenc-lab.mjs', what: 'the same element as an ES module that exports its class, for bundlers; it computes in posenc-lab-worker.mjs' },
  { name: 'posenc-lab-worker.mjs', what: "posenc-lab.mjs's lab worker, with the SIMD wasm core inside, started from beside that script (bundlers copy it)" },
  { name: 'posenc-lab-core-scalar.mjs', what: "the scalar wasm core, which the worker fetches from beside it only in a browser without wasm SIMD (bundlers copy it)" },
  { name: 'anywidget.mjs', what: 'the element as an anywidget module, for Jupyter and marimo' },
  { name: 'posenc-fallback.png', what: 'a picture to put inside the element for readers without JavaScript', from: 'data/posenc-fallback.png' },
  { name: 'custom-elements.json', what: "the element's manifest, for editors and linters" },
];

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
// The descriptions are Markdown with `code` spans only.
const inline = (text) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/**
 * The <tr> rows of the manifest's <posenc-lab> attributes, in the order the JSDoc lists them; the
 * `schemes` row also names every scheme (schemeNames, the core's table order), which the JSDoc
 * leaves to the table.
 */
export function attributeRows(manifest, schemeNames) {
  const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'posenc-lab');
  if (!element?.attributes?.length) throw new Error('custom-elements.json has no <posenc-lab> attributes');
  return element.attributes.map((a) => {
    const type = a.type?.text ?? 'string';
    const fallback = a.default === undefined ? '(none)' : `<code>${escapeHtml(a.default)}</code>`;
    const names = a.name === 'schemes' ? ` The names: ${schemeNames.map((name) => `\`${name}\``).join(', ')}.` : '';
    return `      <tr><th scope="row"><code>${escapeHtml(a.name)}</code></th><td><code>${escapeHtml(type)}</code></td>`
      + `<td>${fallback}</td><td>${inline((a.description ?? '') + names)}</td></tr>`;
  }).join('\n');
}

const sizeText = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

/** The guide's list of the element's files (download links with sizes) and where to get them all. */
export async function fileList(dir, version) {
  const items = [];
  for (const { name, what, from } of ELEMENT_FILES) {
    const { size } = await stat(from ? join(ROOT, from) : join(dir, name));
    items.push(`    <li><a href="${name}" download><code>${name}</code></a> (${sizeText(size)}): ${escapeHtml(what)}</li>`);
  }
  const cdn = `https://cdn.jsdelivr.net/npm/posenc-lab@${version}/dist/`;
  return `  <ul class="files">\n${items.join('\n')}\n  </ul>\n`
    + `  <p>All of them, with this guide, the full page and the JS API, as one folder with relative links: run <code>./scripts/release</code>\n`
    + `    in a clone of the repository (it writes <code>release/posenc-lab-${version}/</code> and the npm tarball <code>release/posenc-lab-${version}.tgz</code>).\n`
    + `    From npm: <code>npm install posenc-lab</code>, or from a CDN, <code>${cdn}posenc-lab.js</code> (GloVe beside it).</p>`;
}

async function main(dir) {
  const manifest = JSON.parse(await readFile(join(dir, 'custom-elements.json'), 'utf8'));
  const page = await readFile(join(dir, 'embed.html'), 'utf8');
  // The generated table beside them (scripts/scheme-module.mjs).
  const { SCHEME_TABLE } = await import(pathToFileURL(resolve(dir, 'scheme-table.mjs')).href);
  for (const marker of [MARKER, FILES_MARKER]) if (!page.includes(marker)) throw new Error(`embed.html has no ${marker}`);
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  await writeFile(join(dir, 'embed.html'), page
    .replace(MARKER, attributeRows(manifest, SCHEME_TABLE.schemes.map((s) => s.name)))
    .replace(FILES_MARKER, await fileList(dir, version)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.length !== 3) {
    console.error('usage: node scripts/embed-attributes.mjs <dir>');
    process.exit(2);
  }
  await main(process.argv[2]);
}
