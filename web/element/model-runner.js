// <posenc-lab model-src="…">'s model side, a file of its own beside the element's script
// (posenc-model-heads.mjs, scripts/bundle-element.mjs), fetched the first time an element is given
// a model, with the model core (posenc-models-<flavour>.wasm, its glue and model.mjs, beside the
// script as for Train live): the element's first load carries none of it, only the figure it
// paints into (model-panel.js). In the one-file build (posenc-lab-standalone.js) this file and the
// model core are inside.
import { loadModels } from '../posenc.mjs';
import { modelTokens } from '../pipeline/model-ids.js';
import { modelHeadsSpec } from '../panels/model-heads.js';

// A data: URL is the whole file: named by its start only.
const shortText = (text) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

function modelUrl(src, base) {
  try {
    return new URL(src, base);
  } catch {
    throw new Error(`model-src="${shortText(src)}" is not a URL`);
  }
}

// What the figure calls the model: its file name, or where it came from.
function modelName(url) {
  if (url.protocol === 'data:' || url.protocol === 'blob:') return `from a ${url.protocol} URL`;
  return decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1)) || url.href;
}

/**
 * The model at `url` (http(s), blob:, data: or file:, as fetch allows), loaded into the model core.
 * → { model, simd }. Rejects with an Error naming the cause: the file could not be fetched, the
 * model core could not load, or the core refused the file (not a weights file, a hostile header…).
 */
export async function openModel(url) {
  let bytes;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new Error(`the model file ${shortText(url.href)} could not be fetched (${error.message})`);
  }
  let models;
  try {
    models = await loadModels();
  } catch (error) {
    throw new Error(`the model core could not be loaded (${error.message})`);
  }
  try {
    return { model: models.loadModel(bytes), simd: models.simd };
  } catch (error) {
    throw new Error(`the model file was refused: ${error.message}`);
  }
}

/**
 * The model's heads on `sentence`, read by its own vocabulary (modelTokens). → { n, ids, pieces,
 * unknown, attention: Float32Array(L·h·n·n) }. RangeError naming the cause when the model cannot
 * read it (a piece outside its vocabulary, more tokens than the core allows the model).
 */
export function headsOn(model, sentence) {
  const { ids, pieces, unknown } = modelTokens(model, sentence);
  const n = ids.length;
  return { n, ids, pieces, unknown, attention: model.attention(ids, n) };
}

/**
 * One element's model: the file at a URL fetched and loaded once, kept while the URL stays (the
 * previous one disposed). → { show(src, sentence, base, isCurrent) → Promise of { spec (the
 * figure's, modelHeadsSpec), n, pieces, unknown, config, simd } or null when no longer current }.
 */
export function createModelSession() {
  let opened = null; // { href, promise of openModel's { model, simd } }
  return {
    async show(src, sentence, base, isCurrent) {
      const url = modelUrl(src, base);
      if (opened?.href !== url.href) {
        opened?.promise.then(({ model }) => model.dispose(), () => {});
        opened = { href: url.href, promise: openModel(url) };
      }
      const { model, simd } = await opened.promise;
      if (!isCurrent()) return null;
      const view = headsOn(model, sentence);
      return { ...view, config: model.config, simd, spec: modelHeadsSpec({ ...view, config: model.config, name: modelName(url) }) };
    },
  };
}
