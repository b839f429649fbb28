// posenc-lab-standalone.js's stand-in for model-runner-loader.js (scripts/bundle-element.mjs puts
// it in place): the model side is inside the one file, as its model core is
// (standalone-loaders.mjs), so an HTML file with no folder (a notebook's output) can show a model.
export const loadModelRunner = () => import('./model-runner.js');
