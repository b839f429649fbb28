// The element's stand-in for web/figures/svg-loader.js (scripts/bundle-element.mjs puts it in
// place): the SVG writer is not inside the bundle but beside it, as posenc-svg.mjs, fetched the
// first time a reader exports an SVG, so the element's first load stays within its budget.
// As in cores.mjs: the classic script resolves the file against its own URL; the ES module names
// it statically, so bundlers copy it. A module run from a blob: or data: URL (anywidget's `_esm`)
// has no folder to fetch from: null, and the Export menus offer no SVG.
/* global POSENC_CLASSIC_SCRIPT */
const FOLDERLESS = /^(blob|data):/.test(import.meta.url);

export const loadSvgWriter = FOLDERLESS ? null : () => (POSENC_CLASSIC_SCRIPT
  ? import(new URL('./posenc-svg.mjs', import.meta.url).href)
  : import('./posenc-svg.mjs'));
