// <posenc-lab model-src="…">'s attention panel: the model's learned heads on the element's
// sentence, every layer × head, read by the model's own vocabulary. Only the figure is here; the
// model side (fetching the file, the model core, the tokens, the maps' spec: model-runner.js) is
// loaded on demand. What cannot be shown (a URL that does not load, a file the core refuses, a
// sentence the model cannot read) is said in the panel's note, naming the cause, with no map.
import { element, setHidden, setText } from '../figures/dom.js';
import { HeatmapFigure } from '../figures/heatmap-figure.js';
import { loadModelRunner } from './model-runner-loader.js';

/** slot → { figure (the heads' HeatmapFigure), show({ src, sentence, isCurrent }) }. */
export function createModelPanel(slot) {
  const note = element('p', { class: 'notice pl-note' });
  note.setAttribute('role', 'status');
  note.hidden = true;
  const figureSlot = element('div');
  slot.append(note, figureSlot);
  const figure = new HeatmapFigure(figureSlot, { title: 'Learned attention', tokenRows: true, tokenCols: true });
  let session = null;
  return {
    figure,
    /**
     * Draws the model at src (relative to the page) on sentence. isCurrent(): whether this call
     * is still the element's latest. → createModelSession's show() result once drawn; null when
     * stale or when it cannot be shown (the note then says why).
     */
    async show({ src, sentence, isCurrent }) {
      try {
        if (!loadModelRunner) throw new Error('posenc-model-heads.mjs has no folder to be fetched from (a blob: or data: script); use posenc-lab-standalone.js');
        session ??= (await loadModelRunner()).createModelSession();
        const shown = await session.show(src, sentence, document.baseURI, isCurrent);
        if (!shown) return null;
        figure.update(shown.spec);
        setHidden(note, true);
        setHidden(figureSlot, false);
        return shown;
      } catch (error) {
        if (!isCurrent()) return null;
        setText(note, `The model cannot be shown: ${error.message.replace(/\.$/, '')}.`);
        setHidden(note, false);
        setHidden(figureSlot, true);
        return null;
      }
    },
  };
}
