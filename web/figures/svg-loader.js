// The SVG writer (svg-writer.js), fetched the first time a figure is exported as SVG: the page
// loads it beside this file; the <posenc-lab> bundles put web/element/svg-writer-beside.js in its place.
// null where it cannot be fetched (web/element/svg-writer-beside.js).
export const loadSvgWriter = () => import('./svg-writer.js');
