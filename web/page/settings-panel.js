// The settings panel (#settings, a <details>) is open where the page lays it out beside the lanes
// and folded where it would push the lanes below the first screen. styles/lab.css decides which layout
// applies and says so in --settings-beside (1 or 0), so the breakpoint is written only there.
// Summary, Enter or Space opens and folds it by hand; the settings' values live in the URL either way.
const panel = document.getElementById('settings');
const beside = () => getComputedStyle(document.documentElement).getPropertyValue('--settings-beside').trim() === '1';

let wasBeside = beside();
panel.open = wasBeside;
addEventListener('resize', () => {
  const now = beside();
  if (now !== wasBeside) panel.open = now;
  wasBeside = now;
});
