// Phones: the lanes stacked would put the second lane's map a screen and more below the first, so
// below LANE_TABS_PX the lanes become tabs (web/page/tabs.js). One lane shows at a time and its
// attention map comes first (styles/lab.css), so switching tabs swaps the maps in the same place.
// Wider, the tabs go and every lane shows side by side.
import { createTabs } from './tabs.js';

export const LANE_TABS_PX = 600;

/** list: the tablist's element (#lane-tabs); names: scheme → label. → { show(schemes) }. */
export function createLaneTabs({ list, names }) {
  const narrow = matchMedia(`(max-width: ${LANE_TABS_PX - 1}px)`);
  let schemes = [];
  let chosen = null;
  const tabs = createTabs(list, { label: 'Lanes', idPrefix: 'lane-tab', onSelect: (name) => { chosen = name; } });

  function refresh() {
    list.hidden = !narrow.matches;
    if (!narrow.matches) { tabs.clear(); return; }
    if (!schemes.includes(chosen)) chosen = schemes[0];
    tabs.set(schemes.map((scheme) => ({ name: scheme, label: names[scheme], panel: document.getElementById(`lane-${scheme}`) })), chosen);
  }
  narrow.addEventListener('change', refresh);

  return {
    /** After the lanes in #lanes changed (their articles are in the document). */
    show(shown) {
      schemes = shown;
      refresh();
    },
  };
}
