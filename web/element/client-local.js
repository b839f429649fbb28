// How posenc-lab.js and anywidget.mjs run their lab (scripts/bundle-element.mjs picks this file or
// client-worker.js per build): in the page's own thread, through the same sessions
// (web/pipeline/lab-session.js) as the lab worker's, behind the same calls as a channel of
// web/pipeline/lab-client.js. These files must run with no other file (a file:// page, anywidget's
// blob: module), and a copy of the worker's code inside them would take them past their size
// budget (docs/EMBEDDING.md). Each compute runs in a task of its own, so edits within one task
// collapse into the newest, and the analyses run one slice per task, stopped by a newer compute.
import { load } from '../posenc.mjs';
import { createLabSession, createLabSources } from '../pipeline/lab-session.js';
import './embedded-core.js';

let lab = null;
let sources = null;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The lab client's calls that <posenc-lab> makes: start() and channel(). */
export function createElementClient() {
  return {
    start() {
      lab ??= load();
      return lab.then((loaded) => ({ simd: loaded.simd }));
    },
    channel() {
      const session = this.start().then(async () => {
        const loaded = await lab;
        sources ??= createLabSources(loaded);
        return createLabSession(loaded, sources);
      });
      let latest = 0;
      return {
        glove: (url, { warm = true } = {}) => session.then((s) => s.loadGlove(url, warm)),
        async compute({ gen, state, figures, shown }) {
          latest = gen;
          const s = await session;
          await nextTask();
          // Nothing to transfer within one thread: the view's arrays are its own copies already.
          return gen === latest ? s.compute({ state, figures, shown }).view : null;
        },
        async analyse(gen, onAnalysis, options) {
          const s = await session;
          const steps = s.analyses(options);
          for (;;) {
            await nextTask();
            if (gen !== latest) return null;
            const step = steps.next();
            if (step.done) return {};
            if (step.value) onAnalysis(step.value.name, step.value.data);
          }
        },
        close() { latest = -1; },
      };
    },
  };
}
