import { LIMITS } from '../options.mjs';
import { element, setHidden, setText } from '../figures/dom.js';
import { grouped } from '../formats/numbers.js';
// The token list (text, positions, unknown words marked) and the selected token's nearest words.
// Tokens are buttons in one tab stop (roving tabindex): Tab enters the list, arrows move along it.

// The chips come in runs of RUN_LENGTH, each run an item of the list holding a list of its own:
// list > li.token-group > ol.token-run > li > button.token. A run far from the screen is skipped
// whole by content-visibility (styles/lab.css), so the browser checks one box per run for
// nearness at each frame, not one per chip (docs/BENCHMARKS.md, round 50). The first run, always
// drawn, is about what the list's box shows.
const RUN_LENGTH = 32;

// The list's state: the token buttons, what each shows, and which one is pressed / is the tab
// stop, kept here so that a keystroke writes only the buttons that change instead of reading and
// writing all of them. The methods keep shown.length === buttons.length, runs.length ===
// ⌈buttons.length / RUN_LENGTH⌉, and pressed, tabStop, selected within the buttons (or null).
class TokenButtons {
  constructor(list) {
    this.list = list;
    this.buttons = [];
    this.runs = [];        // the ol.token-run of each RUN_LENGTH buttons, in order
    this.shown = [];       // [{ token, unknown }] per button
    this.pressed = null;   // the button with aria-pressed="true"
    this.tabStop = null;   // the button with tabIndex 0 (the others have −1)
    this.selected = null;
  }

  setTabStop(index) {
    const stop = index >= 0 && index < this.buttons.length ? index : null;
    if (stop === this.tabStop) return;
    if (this.tabStop !== null) this.buttons[this.tabStop].tabIndex = -1;
    if (stop !== null) this.buttons[stop].tabIndex = 0;
    this.tabStop = stop;
  }

  setPressed(index) {
    const now = index !== null && index >= 0 && index < this.buttons.length ? index : null;
    if (now === this.pressed) return;
    if (this.pressed !== null) this.buttons[this.pressed].setAttribute('aria-pressed', 'false');
    if (now !== null) this.buttons[now].setAttribute('aria-pressed', 'true');
    this.pressed = now;
  }

  select(index) {
    this.selected = index;
    this.setPressed(index);
    this.setTabStop(index ?? 0);
  }

  // Exactly n buttons, reusing those already there: a keystroke usually changes one token, and
  // rebuilding 512 buttons per keystroke would cost more than the maths.
  resize(n) {
    while (this.buttons.length > n) {
      this.buttons.pop().parentElement.remove();
      this.shown.pop();
    }
    const runs = Math.ceil(n / RUN_LENGTH);
    while (this.runs.length > runs) this.runs.pop().parentElement.remove();
    if (this.pressed !== null && this.pressed >= n) this.pressed = null;
    if (this.tabStop !== null && this.tabStop >= n) this.tabStop = null;
    while (this.buttons.length < n) {
      const at = this.buttons.length;
      const button = tokenButton(at);
      const item = document.createElement('li');
      item.append(button);
      this.run(Math.floor(at / RUN_LENGTH)).append(item);
      this.buttons.push(button);
      this.shown.push({ token: null, unknown: false });
    }
  }

  /** The r-th run's list, made (after the last one) where there is none yet. */
  run(r) {
    if (r === this.runs.length) {
      const list = element('ol', { class: 'token-run' });
      this.list.append(element('li', { class: 'token-group' }, [list]));
      this.runs.push(list);
    }
    return this.runs[r];
  }

  /** Writes each token and its unknown mark into its button where they changed. */
  write(tokens, unknown) {
    this.resize(tokens.length);
    tokens.forEach((token, p) => {
      const isUnknown = Boolean(unknown[p]);
      const was = this.shown[p];
      if (was.token === token && was.unknown === isUnknown) return;
      const button = this.buttons[p];
      if (was.token !== token) button.firstChild.textContent = token; // text only, never markup
      if (was.unknown !== isUnknown) button.classList.toggle('is-unknown', isUnknown);
      button.setAttribute('aria-label', `${token}, position ${p}${isUnknown ? ', not in the vocabulary' : ''}`);
      this.shown[p] = { token, unknown: isUnknown };
    });
    if (this.selected !== null && this.selected >= tokens.length) this.selected = null;
    this.select(this.selected);
  }
}

function tokenButton(position) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'token';
  button.dataset.position = String(position);
  button.setAttribute('aria-pressed', 'false');
  button.tabIndex = -1;
  const text = document.createElement('span');
  text.className = 'token-text';
  // The unknown mark and the position are drawn by CSS (styles/lab.css, .token): the visible text
  // is then the token alone, which the accessible name starts with (WCAG 2.5.3, label in name).
  button.append(text);
  return button;
}

// Clicks and arrow keys on the list select a token (and arrows move the focus with it).
function listenToList(list, state, onSelect) {
  list.addEventListener('click', (event) => {
    const button = event.target.closest('button.token');
    if (button) onSelect(Number(button.dataset.position));
  });
  list.addEventListener('keydown', (event) => {
    const button = event.target.closest('button.token');
    if (!button) return;
    const at = Number(button.dataset.position);
    const last = state.buttons.length - 1;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: last };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(last, moves[event.key]));
    onSelect(next);
    state.buttons[next].focus();
  });
}

// The count, the truncation note and the unknown-word legend above the list. total: tokens in the
// text that was read; textCut: the text was longer than the lab tokenizes in one call.
function renderCounts({ count, truncation, unknownLegend }, tokens, unknownCount, total, textCut) {
  setText(count, `(${grouped(tokens)}${unknownCount ? `, ${grouped(unknownCount)} unknown` : ''})`);
  const cut = total > tokens || textCut;
  setHidden(truncation, !cut);
  setText(truncation, !cut ? ''
    : textCut ? `Only the first ${grouped(tokens)} tokens are analysed and shown; the text is longer than ${grouped(LIMITS.maxTextLength)} characters, so only its beginning was read.`
      : `Only the first ${grouped(tokens)} of ${grouped(total)} tokens are analysed and shown.`);
  setHidden(unknownLegend, unknownCount === 0);
}

// One cell of the neighbours table: a row's words with their cosines (the token itself marked),
// then its note.
function neighborsCell(token, { words, note }) {
  const td = document.createElement('td');
  if (words) {
    const ol = document.createElement('ol');
    for (const { word, cosine } of words) {
      const li = document.createElement('li');
      li.textContent = `${word} `;
      li.classList.toggle('is-self', word === token);
      const c = document.createElement('span');
      c.className = 'cosine';
      c.textContent = cosine.toFixed(3);
      li.append(c);
      ol.append(li);
    }
    td.append(ol);
  }
  if (note) td.append(element('p', { class: 'hint', text: note }));
  return td;
}

/** rows: [{ name, words: [{ word, cosine }] | null, note }] → a scrolling table, one column per row. */
function neighborsTable(token, rows) {
  const head = document.createElement('tr');
  for (const row of rows) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = row.name;
    head.append(th);
  }
  const body = document.createElement('tr');
  body.append(...rows.map((row) => neighborsCell(token, row)));
  const table = element('table', { class: 'data-table neighbors-table' });
  table.append(element('thead', {}, [head]), element('tbody', {}, [body]));
  return element('div', { class: 'table-scroll' }, [table]);
}

export function createTokenList({ list, count, truncation, unknownLegend, neighbors, onSelect }) {
  const state = new TokenButtons(list);
  listenToList(list, state, onSelect);
  return {
    render(tokens, unknown, total, textCut = false) {
      const unknownCount = unknown.reduce((sum, u) => sum + (u ? 1 : 0), 0);
      renderCounts({ count, truncation, unknownLegend }, tokens.length, unknownCount, total, textCut);
      state.write(tokens, unknown);
    },

    select: (index) => state.select(index),

    /** rows: [{ name, words: [{ word, cosine }] | null, note }] for the selected token. */
    showNeighbors(token, position, rows, caption) {
      if (token === null) {
        neighbors.replaceChildren();
        return;
      }
      const heading = element('h3', { text: `Nearest words to “${token}” (position ${position}), before and after encoding` });
      neighbors.replaceChildren(heading, neighborsTable(token, rows), element('p', { class: 'hint', text: caption }));
    },
  };
}
