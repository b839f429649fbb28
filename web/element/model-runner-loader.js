// The element's model side (web/element/model-runner.js) is not inside the bundle but beside it,
// as posenc-model-heads.mjs, fetched the first time an element is given a model-src, so the
// element's first load stays within its budget (scripts/bundle-element.mjs). As
// train-runner-loader.js: the classic script resolves the file against its own URL; the ES module
// names it statically, so bundlers copy it. A module run from a blob: or data: URL (anywidget's
// `_esm`) has no folder to fetch from: null. The one-file build (posenc-lab-standalone.js) has it
// inside instead (model-runner-inside.js stands in for this file there).
/* global POSENC_CLASSIC_SCRIPT */
const FOLDERLESS = /^(blob|data):/.test(import.meta.url);

export const loadModelRunner = FOLDERLESS ? null : () => (POSENC_CLASSIC_SCRIPT
  ? import(new URL('./posenc-model-heads.mjs', import.meta.url).href)
  : import('./posenc-model-heads.mjs'));
