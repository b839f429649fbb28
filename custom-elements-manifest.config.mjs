// @custom-elements-manifest/analyzer's settings for scripts/build: the manifest of <posenc-lab>
// comes from the JSDoc on web/element/element.js's class. package.json names dist/'s copy already, and
// users import the class from dist/posenc-lab.mjs (the bundle of web/element/element.js), so the
// manifest names that module.
const SHIPPED_MODULE = 'dist/posenc-lab.mjs';

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
  plugins: [shippedPaths],
};
