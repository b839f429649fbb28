// The lab page's keystroke path (web/page/typed-text.js, web/page/app.js) with none of its work,
// for bench/keystroke.mjs: the engine line is written as the lab's is (its data-view "last
// recompute … (n = …" when a view is applied, then "· analyses … ms" once the analyses after a
// pause have ended; its text at that pause), which is all the bench reads. Only typed text is
// foretold at beforeinput; any other edit is sent at its input event and not held.
const box = document.getElementById('sentence');
const engine = document.getElementById('engine');
const worker = new Worker(new URL('./echo-worker.js', import.meta.url), { type: 'module' });
// Two of the lab's values, restated: this page is served from its own folder and cannot import
// them. The wait before the analyses of a paused sentence (HEAVY_DELAY_MS, web/page/app.js) and
// the tokens analysed at most (MAX_TOKENS, web/pipeline/state.js), which the bench's n reads.
const ANALYSES_AFTER_MS = 250;
const MAX_TOKENS = 512;

let sentAt = 0;
let held = null;     // typed text whose edit waits for the answer
let making = false;  // the held edit's own beforeinput passes
let analyses = 0;

const tokens = (text) => Math.min(MAX_TOKENS, text.split(/\s+/).filter(Boolean).length);
const line = (ms, n, heavy) => `control · last recompute ${ms.toFixed(1)} ms (n = ${n}, d = 0)${heavy ? ' · analyses 0 ms after typing pauses' : ''}`;

function send(text) {
  sentAt = performance.now();
  worker.postMessage(text);
}

box.addEventListener('beforeinput', (event) => {
  if (making || event.inputType !== 'insertText' || event.isComposing) return;
  event.preventDefault();
  held = event.data;
  const { value, selectionStart: start, selectionEnd: end } = box;
  send(value.slice(0, start) + held + value.slice(end));
});
box.addEventListener('input', () => { if (!making) send(box.value); });

worker.addEventListener('message', ({ data: text }) => {
  if (held !== null) {
    making = true;
    document.execCommand('insertText', false, held);
    making = false;
    held = null;
  }
  const n = tokens(text);
  engine.dataset.view = line(performance.now() - sentAt, n, false);
  clearTimeout(analyses);
  analyses = setTimeout(() => { engine.textContent = engine.dataset.view = line(0, n, true); }, ANALYSES_AFTER_MS);
});
send(box.value);
