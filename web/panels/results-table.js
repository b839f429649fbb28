// The trained models' results on the page, from the results store (data/experiments/, shipped as
// experiments/ beside posenc.mjs; scripts/experiments.mjs writes it): held-out perplexity per
// scheme at T, 2T, 4T, 8T with a 95% interval over seeds, sentences under the interval rule
// (web/results/report.js) and the held-out loss by position inside the 8T windows, one line
// per scheme. Fetched once, lazily: when the panel is shown and nears the viewport (a folded tab's
// panel is hidden, so it fetches nothing), or when load() is called. Text goes in with DOM APIs only.
import { TableFigure } from '../figures/table-figure.js';
import { SCHEME_LABELS } from '../options.mjs';
import { setHidden, setText } from '../figures/dom.js';
import { positionSeries, resultsSentences, resultsTable } from '../results/report.js';
import { createPositionChart } from './position-chart.js';

const STORE_URL = new URL('../experiments/words.json', import.meta.url);

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/**
 * panel: the section to show; slot: the table's [data-figure]; summary: a <p> for the sentences;
 * positions: the [data-figure] of the loss-by-position chart (optional).
 */
export function createResultsTable({ panel, slot, summary, positions = null, store = STORE_URL }) {
  let started = null;
  const figure = new TableFigure(slot, { title: 'Trained models: held-out perplexity by length' });
  const chart = positions ? createPositionChart(positions, { title: 'Trained models: held-out loss by position', height: 260 }) : null;
  setText(summary, 'The trained models’ results load when this panel scrolls into view.');

  async function fetchResults() {
    setText(summary, 'Loading the trained models’ results…');
    try {
      show(await fetchJson(store));
    } catch (error) {
      setText(summary, `The trained models’ results could not be loaded (${error.message}).`);
      setHidden(slot, true);
    }
  }

  function show(results) {
    const { columns, rows } = resultsTable(results, SCHEME_LABELS);
    const steps = results.records[0]?.steps;
    figure.update({
      columns,
      rows,
      label: 'Held-out perplexity (lower is better) of each scheme’s trained model at the training length T and beyond: ' +
        'mean and 95% interval over the seeds in the last column',
      note: `Perplexity = exp(mean −ln p of the next word) on the same held-out words at every length; [low, high] is the ` +
        `95% interval over seeds${steps ? `, ${steps} training steps each` : ''}; — means the model cannot run at that length.`,
    });
    setText(summary, resultsSentences(results, SCHEME_LABELS).join(' '));
    const series = positionSeries(results, SCHEME_LABELS);
    if (chart && series.length) {
      chart.update(series.map((s) => ({ ...s, name: `${s.name} (${s.seeds} seed${s.seeds === 1 ? '' : 's'})` })),
        { T: results.records[0].config.context, unit: 'word', over: 'windows, seeds' });
    }
  }

  const load = () => {
    started ??= fetchResults();
  };
  return {
    load,
    /** Shows the panel and fetches the results as the panel nears the viewport. */
    async watch() {
      panel.hidden = false;
      const watcher = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) { watcher.disconnect(); load(); }
      }, { rootMargin: '400px' });
      watcher.observe(panel);
    },
  };
}
