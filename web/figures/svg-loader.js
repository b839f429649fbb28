// The SVG writer (svg-writer.js), fetched the first time a figure is exported as SVG: the page
// loads it beside this file; the <posenc-lab> bundles put web/element/svg-loader.js in its place.
export const loadSvgWriter = () => import('./svg-writer.js');
