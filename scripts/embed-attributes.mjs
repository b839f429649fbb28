// Writes the attribute reference of dist/embed.html from dist/custom-elements.json, which the
// analyzer makes from the JSDoc on web/element/element.js's class: one source for the attribute docs.
//   node scripts/embed-attributes.mjs <dir>   (dir holds embed.html, custom-elements.json, scheme-table.mjs)
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const MARKER = '<!-- attribute rows: scripts/embed-attributes.mjs -->';

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

async function main(dir) {
  const manifest = JSON.parse(await readFile(join(dir, 'custom-elements.json'), 'utf8'));
  const page = await readFile(join(dir, 'embed.html'), 'utf8');
  // The generated table beside them (scripts/scheme-module.mjs).
  const { SCHEME_TABLE } = await import(pathToFileURL(resolve(dir, 'scheme-table.mjs')).href);
  if (!page.includes(MARKER)) throw new Error(`embed.html has no ${MARKER}`);
  await writeFile(join(dir, 'embed.html'), page.replace(MARKER, attributeRows(manifest, SCHEME_TABLE.schemes.map((s) => s.name))));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.length !== 3) {
    console.error('usage: node scripts/embed-attributes.mjs <dir>');
    process.exit(2);
  }
  await main(process.argv[2]);
}
