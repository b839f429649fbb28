// @custom-elements-manifest/analyzer's settings for scripts/build: the manifest of <posenc-lab>
// comes from the JSDoc on web/element/element.js's class. package.json names dist/'s copy already, and
// users import the class from dist/posenc-lab.mjs (the bundle of web/element/element.js), so the
// manifest names that module.
import { pathToFileURL } from 'node:url';

const SHIPPED_MODULE = 'dist/posenc-lab.mjs';

// The core's enums, from the scheme-table.mjs scripts/build has just written (POSENC_SCHEME_TABLE):
// an @attr typed {Layout} gets the core's names as its union type and, when the JSDoc gives no
// default, the first of them (each enum's default), so the manifest never spells a name itself.
if (!process.env.POSENC_SCHEME_TABLE) throw new Error('POSENC_SCHEME_TABLE must name the built scheme-table.mjs (scripts/build sets it)');
const { SCHEME_TABLE } = await import(pathToFileURL(process.env.POSENC_SCHEME_TABLE).href);
const CORE_ENUMS = { Layout: SCHEME_TABLE.layouts, ConcatMode: SCHEME_TABLE.concatModes, RopeScalingType: SCHEME_TABLE.ropeScalings };

const coreEnums = {
  name: 'posenc-core-enums',
  packageLinkPhase({ customElementsManifest }) {
    for (const declaration of customElementsManifest.modules.flatMap((m) => m.declarations ?? [])) {
      for (const attribute of declaration.attributes ?? []) {
        const names = CORE_ENUMS[attribute.type?.text];
        if (!names) continue;
        attribute.type.text = names.map((n) => `'${n}'`).join(' | ');
        attribute.default ??= names[0];
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
  plugins: [shippedPaths, coreEnums],
};
