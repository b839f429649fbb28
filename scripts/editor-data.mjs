// Editor completion data for <posenc-lab>, generated from the built Custom Elements Manifest
// (OUT/custom-elements.json, itself from the JSDoc on the element's class), so the element's
// attributes, values, events and CSS hooks are described in one place:
//   OUT/posenc-lab.html-data.json   VS Code's HTML custom data (format version 1.1), for the
//                                   `html.customData` setting or an extension's
//                                   `contributes.html.customData`
//   OUT/web-types.json              JetBrains' Web Types (schema 2.0), found by the IDEs through
//                                   package.json's `web-types` field
// Usage: node scripts/editor-data.mjs OUT   (run by scripts/build after the manifest)
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The string values of a union of string literals ("'a' | 'b'"), or null for any other type. */
export function literalValues(typeText) {
  const parts = (typeText ?? '').split('|').map((p) => p.trim());
  return parts.length && parts.every((p) => /^'[^']*'$/.test(p)) ? parts.map((p) => p.slice(1, -1)) : null;
}

/** Every custom element the manifest declares, with its module path. */
export function manifestElements(manifest) {
  return manifest.modules.flatMap((module) => (module.declarations ?? [])
    .filter((d) => d.customElement && d.tagName)
    .map((d) => ({ ...d, modulePath: module.path })));
}

const withDefault = (text, value) => (value === undefined ? text : `${text}\n\nDefault: \`${value}\``);

/** VS Code's html custom data for the elements. */
export function htmlCustomData(elements, { docUrl }) {
  return {
    $schema: 'https://raw.githubusercontent.com/microsoft/vscode-html-languageservice/main/docs/customData.schema.json',
    version: 1.1,
    tags: elements.map((el) => ({
      name: el.tagName,
      description: { kind: 'markdown', value: el.description ?? el.summary ?? '' },
      attributes: (el.attributes ?? []).map((a) => {
        const values = literalValues(a.type?.text);
        return {
          name: a.name,
          description: { kind: 'markdown', value: withDefault(a.description ?? '', a.default) },
          ...(values ? { values: values.map((name) => ({ name })) } : {}),
          ...(a.type?.text === 'boolean' ? { values: [{ name: 'true' }, { name: 'false' }] } : {}),
        };
      }),
      references: [{ name: 'PosEnc Lab: embedding the element', url: docUrl }],
    })),
  };
}

/** JetBrains web-types for the elements. */
export function webTypes(elements, { name, version, docUrl }) {
  return {
    $schema: 'https://raw.githubusercontent.com/JetBrains/web-types/master/schema/web-types.json',
    name,
    version,
    'description-markup': 'markdown',
    'js-types-syntax': 'typescript',
    contributions: {
      html: {
        elements: elements.map((el) => ({
          name: el.tagName,
          description: el.description ?? el.summary ?? '',
          'doc-url': docUrl,
          attributes: (el.attributes ?? []).map((a) => ({
            name: a.name,
            description: a.description ?? '',
            ...(a.default !== undefined ? { default: a.default } : {}),
            value: { type: a.type?.text ?? 'string', required: false },
          })),
          js: {
            events: (el.events ?? []).map((e) => ({ name: e.name, description: e.description ?? '' })),
          },
          css: {
            properties: (el.cssProperties ?? []).map((p) => ({ name: p.name, description: p.description ?? '' })),
            parts: (el.cssParts ?? []).map((p) => ({ name: p.name, description: p.description ?? '' })),
          },
        })),
      },
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [out] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node scripts/editor-data.mjs OUT');
    process.exit(2);
  }
  const manifest = JSON.parse(await readFile(join(out, 'custom-elements.json'), 'utf8'));
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  const elements = manifestElements(manifest);
  if (!elements.length) {
    console.error('editor-data: the manifest declares no custom element');
    process.exit(1);
  }
  const docUrl = `${pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}#embedding`;
  const json = (value) => `${JSON.stringify(value, null, 1)}\n`;
  await writeFile(join(out, 'posenc-lab.html-data.json'), json(htmlCustomData(elements, { docUrl })));
  await writeFile(join(out, 'web-types.json'), json(webTypes(elements, { name: pkg.name, version: pkg.version, docUrl })));
}
