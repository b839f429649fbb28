// Module worker: the page's one lab (the wasm core, and the model core once a model is asked for)
// and everything computed with it, so the page's main thread only lays out and paints. The page's
// side is web/pipeline/lab-client.js, which lists the messages.
//
// A newer 'compute' supersedes older work: computes waiting behind a busy worker are dropped for
// the newest, and the analyses after a pause stop at their next slice once a compute arrives.
import { load } from '../posenc.mjs';
import { createLabSession } from './lab-session.js';
import { createModelHost } from './model-host.js';

const post = (message, transfer = []) => self.postMessage(message, transfer);
const lab = load();
const session = lab.then(createLabSession);
const models = createModelHost(lab, post);
let latest = 0;        // the newest compute's generation
let waiting = null;    // the newest compute not yet run

self.addEventListener('message', (event) => {
  const message = event.data ?? {};
  if (models.handle(message)) return;
  switch (message.type) {
    case 'start':
      lab.then((loaded) => post({ type: 'started', simd: loaded.simd, pretrained: loaded.pretrained, schemeTable: loaded.schemeTable }),
        (error) => post({ type: 'start-failed', message: error?.message ?? String(error) }));
      break;
    case 'glove': answer(message, (s) => s.loadGlove()); break;
    case 'custom': answer(message, (s) => s.loadCustom(message.bytes, (v) => `${message.name}: ${v.size.toLocaleString('en-US')} words, d = ${v.dim}`)); break;
    case 'compute':
      latest = message.gen;
      // One task later, so computes queued behind a busy worker collapse into the newest. A timer
      // set from a message handler is not clamped (no nesting).
      if (!waiting) setTimeout(runCompute, 0);
      waiting = message;
      break;
    case 'analyse': analyse(message.gen); break;
    case 'neighbors': answer(message, (s) => s.neighbors(message.selected)); break;
    default: post({ type: 'reply', id: message.id, error: `unknown message type '${message.type}'` });
  }
});

// A request answered once: { type: 'reply', id, value } or { …, error }.
function answer({ id }, work) {
  session.then(work).then((value) => post({ type: 'reply', id, value }),
    (error) => post({ type: 'reply', id, error: error?.message ?? String(error) }));
}

async function runCompute() {
  const message = waiting;
  waiting = null;
  if (!message) return;
  const s = await session.catch(() => null);
  if (!s) return; // 'started' says why
  try {
    const { view, transfer } = s.compute(message);
    // The trained lanes' passes ride along: one answer per keystroke, every array transferred.
    const trained = models.passes(view.n > 0 ? message.trained ?? [] : [], view.tokens);
    view.trained = trained.passes;
    post({ type: 'view', gen: message.gen, view }, [...transfer, ...trained.transfer]);
  } catch (error) {
    post({ type: 'view', gen: message.gen, error: error?.message ?? String(error) });
  }
}

// The analyses of the newest view, one slice per task; they stop once a newer compute came.
async function analyse(gen) {
  const s = await session;
  const started = performance.now();
  let busy = 0;
  const steps = s.analyses();
  while (gen === latest) {
    const sliceStart = performance.now();
    let step;
    try {
      step = steps.next();
    } catch (error) {
      post({ type: 'analysis', gen, error: error?.message ?? String(error) });
      return;
    }
    busy += performance.now() - sliceStart;
    if (step.done) {
      post({ type: 'analysed', gen, ms: busy, wallMs: performance.now() - started });
      return;
    }
    if (step.value) post({ type: 'analysis', gen, name: step.value.name, data: step.value.data });
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
