// @custom-elements-manifest/analyzer's settings for scripts/build: the manifest of <posenc-lab>
// comes from the JSDoc on web/element/element.js's class. package.json names dist/'s copy already, and
// users import the class from dist/posenc-lab.mjs (the bundle of web/element/element.js), so the
// manifest names that module.
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SHIPPED_MODULE = 'dist/posenc-lab.mjs';

// The core's facts, from the scheme-table.mjs scripts/build has just written (POSENC_SCHEME_TABLE),
// so the manifest never restates a name, default or limit of the core's:
// - an @attr typed {Layout} (or {ConcatMode}, {RopeScalingType}) gets the core's names as its
//   union type and, when the JSDoc gives no default, the first of them (each enum's default);
// - a scheme parameter's @attr (trained-length: trainedLength) without a default gets the table's;
// - "{range}" in a description becomes the attribute's range as the page's inputs take it
//   (pipeline/state.js INPUT_RANGES, the scheme parameters' from the table: "from 1 to 1,048,576");
// - "{limit:NAME}" becomes SCHEME_TABLE.limits.NAME (a power of ten as 10ⁿ), "{page:NAME}" the
//   page's constant NAME (pipeline/state.js, beside the staged table).
if (!process.env.POSENC_SCHEME_TABLE) throw new Error('POSENC_SCHEME_TABLE must name the built scheme-table.mjs (scripts/build sets it)');
const { SCHEME_TABLE } = await import(pathToFileURL(process.env.POSENC_SCHEME_TABLE).href);
const PAGE = await import(pathToFileURL(join(dirname(process.env.POSENC_SCHEME_TABLE), 'pipeline/state.js')).href);
const CORE_ENUMS = { Layout: SCHEME_TABLE.layouts, ConcatMode: SCHEME_TABLE.concatModes, RopeScalingType: SCHEME_TABLE.ropeScalings };
const PARAMS = Object.fromEntries(SCHEME_TABLE.params.map((p) => [p.name, p]));

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
// 10¹² for a power of ten from 1e6, 1,048,576 from five digits, 1024 below.
const written = (v) => {
  const power = Math.log10(v);
  if (v >= 1e6 && Number.isInteger(power)) return `10${[...String(power)].map((c) => SUPERSCRIPTS[c]).join('')}`;
  return v >= 1e4 ? v.toLocaleString('en-US') : String(v);
};
const camelCase = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

const coreTable = {
  name: 'posenc-core-table',
  packageLinkPhase({ customElementsManifest }) {
    for (const declaration of customElementsManifest.modules.flatMap((m) => m.declarations ?? [])) {
      for (const attribute of declaration.attributes ?? []) {
        const names = CORE_ENUMS[attribute.type?.text];
        if (names) {
          attribute.type.text = names.map((n) => `'${n}'`).join(' | ');
          attribute.default ??= names[0];
        }
        const param = PARAMS[camelCase(attribute.name)];
        if (param) attribute.default ??= String(param.default);
        attribute.description = attribute.description?.replace(/\{(range|limit|page):?(\w*)\}/g, (match, kind, name) => {
          const [value, where] = kind === 'limit' ? [SCHEME_TABLE.limits[name], "the core's limits"]
            : kind === 'page' ? [PAGE[name], 'pipeline/state.js'] : [PAGE.INPUT_RANGES[camelCase(attribute.name)], 'INPUT_RANGES'];
          if (value === undefined) throw new Error(`${attribute.name}: ${match} is not in ${where}`);
          return kind === 'range' ? `from ${written(value.min)} to ${written(value.max)}` : written(value);
        });
      }
    }
  },
};

const shippedPaths = {
  name: 'posenc-shipped-paths',
  packageLinkPhase({ customElementsManifest }) {
    for (const module of customElementsManifest.modules) {
      module.path = SHIPPED_MODULE;
      // Private fields (#name) are no one's API; leave them out.
      for (const declaration of module.declarations ?? []) {
        if (declaration.members) declaration.members = declaration.members.filter((m) => m.privacy !== 'private');
      }
      module.declarations = (module.declarations ?? []).filter((d) => d.kind === 'class');
      for (const entry of module.exports ?? []) {
        if (entry.declaration) entry.declaration.module = SHIPPED_MODULE;
        // customElements.define(TAG, …): the analyzer records the constant's name, not its value.
        if (entry.kind === 'custom-element-definition') entry.name = 'posenc-lab';
      }
    }
  },
};

export default {
  globs: ['web/element/element.js'],
  packagejson: false,
  plugins: [shippedPaths, coreTable],
};
