// The Measurements section as tabs, one panel each; the trained models' tab only while its panel
// shows (web/panels/results-table.js unhides it when results ship).
import { MEASUREMENTS } from '../pipeline/state.js';
import { createTabs } from './tabs.js';

/**
 * list: the tab list element; panelOf(name): a measurement's panel; selected(): the state's
 * measurement; onSelect(name): the reader chose one. → { sync() } (after the state changed).
 */
export function createMeasureTabs({ list, panelOf, selected, onSelect }) {
  const tabs = createTabs(list, { label: 'Measurements', idPrefix: 'measure-tab', onSelect });
  tabs.set(MEASUREMENTS.map((name) => ({ name, label: panelOf(name).dataset.tab, panel: panelOf(name) })), selected());
  const results = panelOf('trained-results');
  const sync = () => {
    tabs.button('trained-results').hidden = results.hidden;
    const wanted = results.hidden && selected() === 'trained-results' ? MEASUREMENTS[0] : selected();
    if (tabs.selected !== wanted) tabs.select(wanted);
  };
  new MutationObserver(sync).observe(results, { attributes: true, attributeFilter: ['hidden'] });
  sync();
  return { sync };
}
