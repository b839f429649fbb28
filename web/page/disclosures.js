// What the reader unfolds, kept in the URL: the settings panel (#settings) and, per lane, the one
// disclosure holding its encoded input and logit decomposition (details.lane-more). Both start
// folded (web/pipeline/state.js: settingsOpen, moreOpen); the page's state holds what is open.

/**
 * settings: the settings' <details>; lanesBox: #lanes (lanes come and go inside it); state(): the
 * page's state now; onToggle(patch) gets { settingsOpen } or { moreOpen } when what is open no
 * longer matches the state (the reader opened or folded one). → { apply(state) }, which opens and
 * folds them to match a state (from a link, or after lanes were added).
 */
export function createDisclosures({ settings, lanesBox, state, onToggle }) {
  settings.addEventListener('toggle', () => {
    if (settings.open !== state().settingsOpen) onToggle({ settingsOpen: settings.open });
  });
  // toggle does not bubble, but its capture phase passes through #lanes. Lanes not shown keep
  // their entry: folding one lane leaves the others' as they were.
  lanesBox.addEventListener('toggle', (event) => {
    if (!event.target.matches?.('details.lane-more')) return;
    const scheme = event.target.closest('.lane').dataset.scheme;
    const was = state().moreOpen;
    if (was.includes(scheme) === event.target.open) return;
    onToggle({ moreOpen: event.target.open ? [...was, scheme] : was.filter((s) => s !== scheme) });
  }, true);

  return {
    apply({ settingsOpen, moreOpen }) {
      if (settings.open !== settingsOpen) settings.open = settingsOpen;
      for (const lane of lanesBox.querySelectorAll('.lane')) {
        const more = lane.querySelector('details.lane-more');
        const open = moreOpen.includes(lane.dataset.scheme);
        if (more.open !== open) more.open = open;
      }
    },
  };
}
