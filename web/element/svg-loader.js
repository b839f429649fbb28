// The element's stand-in for web/figures/svg-loader.js (scripts/bundle-element.mjs puts it in
// place): the SVG writer is not inside the bundle but beside it, as posenc-svg.mjs, fetched the
// first time a reader exports an SVG, so the element's first load stays within its budget.
// As in cores.mjs: the classic script resolves the file against its own URL; the ES module names
// it statically, so bundlers copy it.
/* global POSENC_CLASSIC_SCRIPT */
export const loadSvgWriter = () => (POSENC_CLASSIC_SCRIPT
  ? import(new URL('./posenc-svg.mjs', import.meta.url).href)
  : import('./posenc-svg.mjs'));
