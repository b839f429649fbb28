// Long sentences where the lanes stand side by side: when their maps are too narrow to name every
// word (rows closer than MIN_PITCH_PX, so the axes thin their labels) but two lanes to a row would
// name them all, the lanes wrap two to a row (.lanes[data-columns="2"], styles/lab.css). What each
// arrangement can name is learned from an attention map's own width as laid out (a ResizeObserver,
// per width of the lanes), so no layout is read while typing and no size is restated here.
import { MIN_PITCH_PX } from '../figures/token-axes.js';

const ALL = 'all';
const TWO = '2';

/** lanesBox: #lanes. → { fit(n) }: arranges the lanes for n words (call on every recompute). */
export function createLaneColumns(lanesBox) {
  const widths = new Map(); // `${arrangement}/${lane count}/${lanes width}` → one map's width (px)
  let words = 0;
  let lanesWidth = 0;
  let watched = null;
  let refit = false;

  const arrangement = () => lanesBox.dataset.columns ?? ALL;
  const key = (which) => `${which}/${lanesBox.dataset.count}/${lanesWidth}`;
  const capacity = (which) => (widths.has(key(which)) ? Math.floor(widths.get(key(which)) / MIN_PITCH_PX) : undefined);

  // Changing the arrangement inside a ResizeObserver callback would resize what it observes (a
  // loop error): the new arrangement waits for the next frame.
  const sizes = new ResizeObserver((entries) => {
    for (const entry of entries) if (entry.target === lanesBox) lanesWidth = Math.round(entry.contentRect.width);
    for (const entry of entries) {
      if (entry.target !== lanesBox && entry.contentRect.width > 0) widths.set(key(arrangement()), entry.contentRect.width);
    }
    if (refit) return;
    refit = true;
    requestAnimationFrame(() => { refit = false; fit(words); });
  });
  sizes.observe(lanesBox);

  // The first lane's attention map stands for all of them (the lanes share one width).
  function watchMap() {
    const map = lanesBox.querySelector('.lane [data-figure$="-attention"] canvas.map-canvas');
    if (map === watched) return;
    if (watched) sizes.unobserve(watched);
    watched = map;
    if (map) sizes.observe(map);
  }

  function choose() {
    const count = Number(lanesBox.dataset.count ?? 0);
    const all = capacity(ALL), two = capacity(TWO);
    if (count < 3 || all === undefined || words <= all) return ALL;
    // Stacked lanes (a phone's) have maps wider than half the lanes: nothing to gain.
    if (widths.get(key(ALL)) >= lanesWidth / 2) return ALL;
    // Two to a row is tried once at this width; it stays only when it names every word.
    return two === undefined || words <= two ? TWO : ALL;
  }

  function fit(n) {
    words = n;
    watchMap();
    const next = choose();
    if (next === arrangement()) return;
    if (next === ALL) delete lanesBox.dataset.columns;
    else lanesBox.dataset.columns = next;
  }

  return { fit };
}
