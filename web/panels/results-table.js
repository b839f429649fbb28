// The trained models' results on the page: held-out perplexity per scheme at T, 2T, 4T, 8T with
// the spread over seeds, and sentences computed from those numbers (web/panels/results-data.js).
// The panel stays hidden unless the models' manifest names a results file ("results":
// "results.json", written beside the models by scripts/model-results); that file is then fetched
// once, lazily: when the panel nears the viewport, or when load() is called (the Heads control
// switching to trained). Text goes in with DOM APIs only.
import { TableFigure } from '../figures/table-figure.js';
import { SCHEME_LABELS } from '../posenc.mjs';
import { setHidden, setText } from '../figures/dom.js';
import { resultsSentences, resultsTable, seedCount } from './results-data.js';

// Shipped beside posenc.mjs (scripts/build copies data/models/ into dist/models/).
const MODELS_URL = new URL('../models/', import.meta.url);

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/** panel: the section to show; slot: the table's [data-figure]; summary: a <p> for the sentences. */
export function createResultsTable({ panel, slot, summary, models = MODELS_URL }) {
  let resultsUrl = null; // set by watch() when the manifest names a results file
  let started = null;
  const figure = new TableFigure(slot, { title: 'Trained models: held-out perplexity by length' });
  setText(summary, 'The trained models’ results load when this panel scrolls into view.');

  async function fetchResults() {
    setText(summary, 'Loading the trained models’ results…');
    try {
      show(await fetchJson(resultsUrl));
    } catch (error) {
      setText(summary, `The trained models’ results could not be loaded (${error.message}).`);
      setHidden(slot, true);
    }
  }

  function show(results) {
    const { columns, rows } = resultsTable(results, SCHEME_LABELS);
    const count = seedCount(results);
    const seeds = count ? `${count} seed${count === 1 ? '' : 's'}` : 'the seeds';
    figure.update({
      columns,
      rows,
      label: `Held-out perplexity (lower is better) of each scheme's trained model at the training length T and beyond: ` +
        `mean ± spread over ${seeds}`,
      note: `Perplexity = exp(mean −ln p of the next word) on held-out text; ± is the spread over ${seeds}` +
        `${results.steps ? `, ${results.steps} training steps each` : ''}; — means the model cannot run at that length.`,
    });
    setText(summary, resultsSentences(results, SCHEME_LABELS).join(' '));
  }

  const load = () => {
    if (resultsUrl) started ??= fetchResults();
  };
  return {
    load,
    /**
     * Reads the models' manifest (call only when models ship) and, if it names a results file,
     * shows the panel and fetches the results as the panel nears the viewport.
     */
    async watch() {
      const manifest = await fetchJson(new URL('manifest.json', models)).catch(() => null);
      if (typeof manifest?.results !== 'string') return;
      resultsUrl = new URL(manifest.results, models);
      panel.hidden = false;
      const watcher = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) { watcher.disconnect(); load(); }
      }, { rootMargin: '400px' });
      watcher.observe(panel);
    },
  };
}
