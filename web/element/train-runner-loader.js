// The element's live trainer (web/element/train-runner.js) is not inside the bundle but beside it,
// as posenc-train-live.mjs, fetched the first time a reader presses Train live, so the element's
// first load stays within its budget (scripts/bundle-element.mjs). As svg-writer-beside.js: the classic
// script resolves the file against its own URL; the ES module names it statically, so bundlers
// copy it. A module run from a blob: or data: URL (anywidget's `_esm`) has no folder to fetch
// from: null (it could not fetch the model core or the book either).
/* global POSENC_CLASSIC_SCRIPT */
const FOLDERLESS = /^(blob|data):/.test(import.meta.url);

export const loadTrainRunner = FOLDERLESS ? null : () => (POSENC_CLASSIC_SCRIPT
  ? import(new URL('./posenc-train-live.mjs', import.meta.url).href)
  : import('./posenc-train-live.mjs'));
