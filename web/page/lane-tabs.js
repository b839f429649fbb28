// Phones: the lanes stacked would put the second lane's map a screen and more below the first, so
// below LANE_TABS_PX the lanes become tabs (web/page/tabs.js) and each tab carries a small copy of
// its lane's attention map: the three maps side by side, on the same 0–1 scale, as small multiples.
// The chosen tab's lane shows in full below them, its map right under its heading (index.html), so
// switching tabs swaps the big maps in the same place. Wider, the tabs go and every lane shows.
import { createTabs } from './tabs.js';
import { paintMatrix } from '../figures/heatmap.js';

export const LANE_TABS_PX = 600;

/**
 * list: the tablist's element (#lane-tabs); names: scheme → label; buffers: { hold(array),
 * release(array) } hears which map each thumbnail reads (view-buffers.js), optional. → {
 * show(schemes), attention(scheme, spec) }: show after the lanes in #lanes changed; attention
 * after a lane's attention figure was given a new spec (web/panels/lanes.js, onAttention).
 */
export function createLaneTabs({ list, names, buffers = null }) {
  const narrow = matchMedia(`(max-width: ${LANE_TABS_PX - 1}px)`);
  let schemes = [];
  let chosen = null;
  const tabs = createTabs(list, { label: 'Lanes', idPrefix: 'lane-tab', onSelect: (name) => { chosen = name; } });
  const thumbs = new Map(); // scheme → { canvas, spec }
  const pending = new Set();
  let frame = 0;

  function thumb(scheme) {
    if (!thumbs.has(scheme)) {
      const canvas = document.createElement('canvas');
      canvas.className = 'lane-thumb';
      canvas.setAttribute('aria-hidden', 'true'); // the tab's name is the scheme's; the lane has the map
      thumbs.set(scheme, { canvas, spec: null });
    }
    return thumbs.get(scheme);
  }

  function paint() {
    frame = 0;
    if (!narrow.matches) return;
    for (const scheme of pending) {
      const { canvas, spec } = thumb(scheme);
      const tile = spec?.tiles.at(-1); // NoPE: the masked map, as its lane shows last
      if (tile) paintMatrix(canvas, tile.values, tile.rows, tile.cols, { palette: 'viridis', min: spec.min, max: spec.max, offset: tile.offset ?? 0 });
    }
    pending.clear();
  }
  function schedule(scheme) {
    pending.add(scheme);
    if (!frame) frame = requestAnimationFrame(paint);
  }

  function refresh() {
    list.hidden = !narrow.matches;
    if (!narrow.matches) { tabs.clear(); return; }
    if (!schemes.includes(chosen)) chosen = schemes[0];
    tabs.set(schemes.map((scheme) => ({ name: scheme, label: names[scheme], panel: document.getElementById(`lane-${scheme}`) })), chosen);
    for (const scheme of schemes) {
      tabs.button(scheme).prepend(thumb(scheme).canvas);
      schedule(scheme);
    }
  }
  narrow.addEventListener('change', refresh);

  return {
    show(shown) {
      schemes = shown;
      refresh();
    },
    attention(scheme, spec) {
      const shown = thumb(scheme).spec?.tiles.at(-1)?.values;
      buffers?.hold(spec?.tiles.at(-1)?.values);
      buffers?.release(shown);
      thumb(scheme).spec = spec;
      if (narrow.matches && schemes.includes(scheme)) schedule(scheme);
    },
  };
}
