// A row of tabs (WAI-ARIA tabs pattern): one tab stop, ← → Home End move and select, and the
// selected tab's panel shown, the others hidden by a class (not the hidden attribute, which the
// panels' own code may use). Used by the Measurements section and by the lanes on phones.

// The tab button (id) that shows `panel`, which becomes its tabpanel.
function tabFor(id, text, panel) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'tab';
  button.id = id;
  button.setAttribute('role', 'tab');
  button.setAttribute('aria-controls', panel.id);
  button.textContent = text;
  panel.setAttribute('role', 'tabpanel');
  return button;
}

/**
 * list: the element that becomes the tablist (named by `label`); onSelect(name) after the reader
 * picks a tab. → { set(items, selected), clear(), select(name), selected, button(name) }, where items are
 * [{ name, label, panel }] and panel is the element the tab shows.
 */
export function createTabs(list, { label, onSelect, idPrefix }) {
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', label);
  let tabs = [];   // [{ name, button, panel }]
  let current = null;

  function select(name, { focus = false } = {}) {
    const picked = tabs.find((t) => t.name === name) ?? tabs[0];
    if (!picked) return;
    current = picked.name;
    for (const tab of tabs) {
      const on = tab === picked;
      tab.button.setAttribute('aria-selected', String(on));
      tab.button.tabIndex = on ? 0 : -1;
      tab.panel.classList.toggle('tab-off', !on);
    }
    if (focus) picked.button.focus();
  }

  list.addEventListener('click', (event) => {
    const tab = tabs.find((t) => t.button === event.target.closest('[role="tab"]'));
    if (tab) { select(tab.name); onSelect(tab.name); }
  });
  list.addEventListener('keydown', (event) => {
    const shown = tabs.filter((t) => !t.button.hidden);
    const at = shown.findIndex((t) => t.button === event.target);
    if (at < 0) return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: shown.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = shown[(moves[event.key] + shown.length) % shown.length];
    select(next.name, { focus: true });
    onSelect(next.name);
  });

  return {
    set(items, selected) {
      tabs = items.map(({ name, label: text, panel }) => ({ name, button: tabFor(`${idPrefix}-${name}`, text, panel), panel }));
      list.replaceChildren(...tabs.map((t) => t.button));
      select(selected);
    },
    /** Back to no tabs: the panels lose their role and are all shown. */
    clear() {
      for (const tab of tabs) {
        tab.panel.removeAttribute('role');
        tab.panel.classList.remove('tab-off');
      }
      tabs = [];
      list.replaceChildren();
    },
    select,
    get selected() { return current; },
    /** The tab of `name`, e.g. to hide it while its panel has nothing to show. */
    button: (name) => tabs.find((t) => t.name === name)?.button,
  };
}
