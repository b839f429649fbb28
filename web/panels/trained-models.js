// The trained lanes' model records: one per scheme whose model the reader has asked for, loading
// in the lab worker (web/pipeline/model-client.js) with progress, ready, or failed. A load still
// under way is abandoned (AbortSignal) when the toggle switches back; a loaded model is kept.
// A record is ready with a heads-only model (maps, no surprise strip) as soon as the file's first
// bytes are in; the complete model replaces it when the rest arrives.
import { SCHEME_LABELS } from '../options.mjs';
import { vocabularyIndex } from '../pipeline/model-ids.js';
import { afterNextFrame } from '../pipeline/tasks.js';
import { W_IS_I } from '../pipeline/prose.js';

const percent = (loaded, total) => (total > 0 ? ` ${Math.round((100 * loaded) / total)}%` : '');

/** The lane's note while its model loads: progress, and what the lane shows meanwhile. */
export function loadingText(scheme, record) {
  const { loaded, total } = record.progress;
  return `Loading the trained ${SCHEME_LABELS[scheme]} model…${percent(loaded, total)} of ${((total || loaded) / 1e6).toFixed(1)} MB; ` +
    `encoding alone (${W_IS_I}) meanwhile.`;
}

/**
 * client: the model client; onProgress(scheme, record) while a model loads; requestUpdate() when
 * one arrives or fails. → a Map-like store, scheme → { status: 'loading' | 'ready' | 'failed',
 * model, index (token → id), controller, error, progress: { loaded, total } }.
 */
export function createModelRecords({ client, onProgress, requestUpdate }) {
  const models = new Map();

  function start(scheme, entry) {
    const controller = new AbortController();
    const record = { status: 'loading', controller, progress: { loaded: 0, total: entry.bytes ?? 0 } };
    models.set(scheme, record);
    // The load leaves for the worker once the frame that shows the lanes asking for it is out. Its
    // fetches, the models' wasm compile and the decoding run in other threads, but on two cores
    // they shared them with that frame's style and layout, which then took several times its own
    // CPU time. Waiting delays the trained heads by that one frame.
    afterNextFrame().then(() => client.load(entry.name, {
      signal: controller.signal,
      onProgress: (progress) => {
        record.progress = progress;
        if (models.get(scheme) === record) onProgress(scheme, record);
      },
      onComplete: (model, error) => {
        if (models.get(scheme) !== record) return;
        Object.assign(record, model ? { model } : { status: 'failed', error });
        requestUpdate();
      },
    })).then((model) => {
      if (models.get(scheme) !== record) return; // abandoned meanwhile; the worker keeps it for a later switch
      Object.assign(record, { status: 'ready', model, index: vocabularyIndex(model.vocab), controller: null });
      requestUpdate();
    }, (error) => {
      if (models.get(scheme) !== record) return;
      if (error?.name === 'AbortError') { models.delete(scheme); return; }
      Object.assign(record, { status: 'failed', error, controller: null });
      requestUpdate();
    });
    return record;
  }

  /**
   * Switching back from trained abandons the loads still under way and forgets failures (the
   * next switch to trained tries those again); loaded models are kept.
   */
  function cancel() {
    for (const [scheme, record] of models) {
      if (record.status === 'ready') continue;
      record.controller?.abort();
      models.delete(scheme);
    }
  }

  return {
    has: (scheme) => models.has(scheme),
    get: (scheme) => models.get(scheme),
    /** The scheme's record, its load started first when there is none. */
    ensure: (scheme, entry) => models.get(scheme) ?? start(scheme, entry),
    /** Whether a model is still on its way: loading, or in with its heads only. */
    get busy() { return [...models.values()].some((record) => record.status === 'loading' || record.model?.complete === false); },
    cancel,
  };
}
