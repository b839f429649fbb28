import { LIMITS } from '../options.mjs';
import { setHidden, setText } from '../figures/dom.js';
// The token list (text, positions, unknown words marked) and the selected token's nearest words.
// Tokens are buttons in one tab stop (roving tabindex): Tab enters the list, arrows move along it.

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

export function createTokenList({ list, count, truncation, unknownLegend, neighbors, onSelect }) {
  let buttons = [];
  // What each button shows, and which button is pressed / is the tab stop, kept here so that a
  // keystroke writes only the buttons that change instead of reading and writing all of them.
  let shown = [];        // [{ token, unknown }] per button
  let pressed = null;    // the button with aria-pressed="true"
  let tabStop = null;    // the button with tabIndex 0 (the others have −1)
  let selected = null;

  list.addEventListener('click', (event) => {
    const button = event.target.closest('button.token');
    if (button) onSelect(Number(button.dataset.position));
  });
  list.addEventListener('keydown', (event) => {
    const button = event.target.closest('button.token');
    if (!button) return;
    const at = Number(button.dataset.position);
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: buttons.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(buttons.length - 1, moves[event.key]));
    onSelect(next);
    buttons[next].focus();
  });

  function setTabStop(index) {
    const stop = index >= 0 && index < buttons.length ? index : null;
    if (stop === tabStop) return;
    if (tabStop !== null) buttons[tabStop].tabIndex = -1;
    if (stop !== null) buttons[stop].tabIndex = 0;
    tabStop = stop;
  }

  function setPressed(index) {
    const now = index !== null && index >= 0 && index < buttons.length ? index : null;
    if (now === pressed) return;
    if (pressed !== null) buttons[pressed].setAttribute('aria-pressed', 'false');
    if (now !== null) buttons[now].setAttribute('aria-pressed', 'true');
    pressed = now;
  }

  return {
    // total: tokens in the text that was read; textCut: the text itself was longer than the lab
    // tokenizes in one call, so only its beginning was read.
    render(tokens, unknown, total, textCut = false) {
      const unknownCount = unknown.reduce((sum, u) => sum + (u ? 1 : 0), 0);
      setText(count, `(${NUMBER_FORMAT.format(tokens.length)}${unknownCount ? `, ${NUMBER_FORMAT.format(unknownCount)} unknown` : ''})`);
      const cut = total > tokens.length || textCut;
      setHidden(truncation, !cut);
      setText(truncation, !cut ? ''
        : textCut ? `Only the first ${NUMBER_FORMAT.format(tokens.length)} tokens are analysed and shown; the text is longer than ${NUMBER_FORMAT.format(LIMITS.maxTextLength)} characters, so only its beginning was read.`
          : `Only the first ${NUMBER_FORMAT.format(tokens.length)} of ${NUMBER_FORMAT.format(total)} tokens are analysed and shown.`);
      setHidden(unknownLegend, unknownCount === 0);
      // Reuse the buttons already there: a keystroke usually changes one token, and rebuilding
      // 512 buttons per keystroke would cost more than the maths.
      while (buttons.length > tokens.length) {
        buttons.pop().parentElement.remove();
        shown.pop();
      }
      if (pressed !== null && pressed >= buttons.length) pressed = null;
      if (tabStop !== null && tabStop >= buttons.length) tabStop = null;
      while (buttons.length < tokens.length) {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'token';
        button.dataset.position = String(buttons.length);
        button.setAttribute('aria-pressed', 'false');
        button.tabIndex = -1;
        const text = document.createElement('span');
        text.className = 'token-text';
        // The unknown mark and the position are drawn by CSS (styles/lab.css, .token): the visible text
        // is then the token alone, which the accessible name starts with (WCAG 2.5.3, label in name).
        button.append(text);
        item.append(button);
        list.append(item);
        buttons.push(button);
        shown.push({ token: null, unknown: false });
      }
      tokens.forEach((token, p) => {
        const isUnknown = Boolean(unknown[p]);
        const was = shown[p];
        if (was.token === token && was.unknown === isUnknown) return;
        const button = buttons[p];
        if (was.token !== token) button.firstChild.textContent = token; // text only, never markup
        if (was.unknown !== isUnknown) button.classList.toggle('is-unknown', isUnknown);
        button.setAttribute('aria-label', `${token}, position ${p}${isUnknown ? ', not in the vocabulary' : ''}`);
        shown[p] = { token, unknown: isUnknown };
      });
      if (selected !== null && selected >= tokens.length) selected = null;
      this.select(selected);
    },

    select(index) {
      selected = index;
      setPressed(index);
      setTabStop(index ?? 0);
    },

    /** rows: [{ name, words: [{ word, cosine }] | null, note }] for the selected token. */
    showNeighbors(token, position, rows, caption) {
      if (token === null) {
        neighbors.replaceChildren();
        return;
      }
      const heading = document.createElement('h3');
      heading.textContent = `Nearest words to “${token}” (position ${position}), before and after encoding`;
      const table = document.createElement('table');
      table.className = 'data-table neighbors-table';
      const head = document.createElement('tr');
      for (const row of rows) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = row.name;
        head.append(th);
      }
      const body = document.createElement('tr');
      for (const row of rows) {
        const td = document.createElement('td');
        if (row.words) {
          const ol = document.createElement('ol');
          for (const { word, cosine } of row.words) {
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
        if (row.note) {
          const note = document.createElement('p');
          note.className = 'hint';
          note.textContent = row.note;
          td.append(note);
        }
        body.append(td);
      }
      const thead = document.createElement('thead');
      thead.append(head);
      const tbody = document.createElement('tbody');
      tbody.append(body);
      table.append(thead, tbody);
      const scroller = document.createElement('div');
      scroller.className = 'table-scroll';
      scroller.append(table);
      const note = document.createElement('p');
      note.className = 'hint';
      note.textContent = caption;
      neighbors.replaceChildren(heading, scroller, note);
    },
  };
}
