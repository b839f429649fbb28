// <posenc-lab panel="train">: the replay of the page's default Train run (web/train/replay.js) is
// the instant first picture; pressing Train live fetches the live trainer (posenc-train-live.mjs,
// web/element/train-runner.js, with the JS API's loadModels), the model core (its own wasm module) and the book,
// all beside this script, and trains the same run live, one model per scheme, redrawing the same
// charts as the steps climb.
import { createTrainReplay } from '../train/replay.js';
import { CURVE_STYLE } from '../pipeline/schemes.js';
import { element } from '../figures/dom.js';
import { schemeName } from '../train/figures.js';
import { describeRun } from '../train/summary.js';
import { loadTrainRunner } from './train-runner-loader.js';

/** slot → { update(), figure } (as createTrainReplay, with a Train / Pause button). */
export function createTrainLive(slot) {
  const replay = createTrainReplay(slot);
  const button = element('button', { type: 'button', text: 'Train live' });
  const status = element('p', { className: 'pl-note train-live-status', text: 'Showing the recorded run. Train live trains it again in this page.' });
  status.setAttribute('role', 'status');
  slot.insertBefore(element('p', { className: 'train-live-controls' }, [button]), replay.note.nextSibling);
  slot.insertBefore(status, button.parentNode.nextSibling);

  let runner = null;
  let loading = false;
  button.addEventListener('click', async () => {
    if (runner?.playing) { runner.pause(); return; }
    if (loading) return;
    if (!runner) {
      loading = true;
      status.textContent = 'Loading the live trainer…';
      try {
        if (!loadTrainRunner) throw new Error('the live trainer (posenc-train-live.mjs) has no folder to be fetched from: this script was loaded from a blob: or data: URL');
        const { createTrainRunner } = await loadTrainRunner();
        runner = createTrainRunner({ replay, button, status, fetchBook, schemeName, curveStyle: CURVE_STYLE, describeRun });
      } catch (error) {
        status.textContent = `Live training could not start: ${error.message}`;
        return;
      } finally {
        loading = false;
      }
    }
    runner.play();
  });

  return { update() {}, figure: replay.figure };
}

// The book beside this script, named when training starts: a module loaded from a blob: URL
// (anywidget's `_esm`) has no folder, and must still load and show its replay.
async function fetchBook() {
  let url;
  try {
    url = new URL('./moby-dick.txt', import.meta.url);
  } catch {
    throw new Error('the book (moby-dick.txt) has no folder to be fetched from: this script was loaded from a blob: or data: URL');
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the book (moby-dick.txt) could not be loaded: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
