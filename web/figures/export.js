// Figure export: PNG and SVG pictures and CSV/JSON data, downloaded through a temporary object
// URL, and the one Export menu every figure shows.
import { element } from './dom.js';
import { EXPORT_FONT, EXPORT_INK } from './export-style.js';
import { loadSvgWriter } from './svg-loader.js';

/** Downloads a Blob under `filename`. */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * A PNG of a pixel-per-cell canvas, enlarged by whole pixels (no smoothing) so that small
 * matrices stay crisp; `title` is written above the picture so the file explains itself.
 */
export function canvasToPng(canvas, { title = '', minSize = 480 } = {}) {
  const scale = Math.max(1, Math.ceil(minSize / Math.max(canvas.width, canvas.height)));
  const titleHeight = title ? 28 : 0;
  const out = document.createElement('canvas');
  out.width = Math.max(canvas.width * scale, 320);
  out.height = canvas.height * scale + titleHeight;
  const context = out.getContext('2d');
  context.fillStyle = EXPORT_INK.paper;
  context.fillRect(0, 0, out.width, out.height);
  if (title) {
    context.fillStyle = EXPORT_INK.text;
    context.font = `14px ${EXPORT_FONT}`;
    context.fillText(title, 6, 19, out.width - 12);
  }
  context.imageSmoothingEnabled = false;
  context.drawImage(canvas, 0, titleHeight, canvas.width * scale, canvas.height * scale);
  return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
}

/** A CSV blob from a header row and rows of cells; strings are quoted, numbers kept exact. */
export function csvBlob(header, rows) {
  const cell = (value) => {
    if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
    const text = String(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [header.map(cell).join(',')];
  for (const row of rows) lines.push(row.map(cell).join(','));
  return new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' });
}

/**
 * An SVG Blob: `scene` written by svg-writer.js's function `writer` ('heatmapSvg', 'chartSvg',
 * 'tableSvg'). The writer is loaded on the first SVG export, so it costs the first load nothing.
 */
export async function svgBlob(writer, scene) {
  if (!loadSvgWriter) throw new Error('SVG export needs posenc-svg.mjs beside the script, and this module has no folder');
  const module = await loadSvgWriter();
  return new Blob([module[writer](scene)], { type: 'image/svg+xml' });
}

export function jsonBlob(value) {
  const plain = JSON.stringify(value, (key, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v));
  return new Blob([plain], { type: 'application/json' });
}

/** File names from a figure's title: lowercase words joined by dashes. */
export function fileStem(title) {
  return `posenc-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

// The formats a figure can be exported in, in the menu's order: `maker` names the figure's function
// that returns the file (a Blob or a promise of one). A new format is one row here plus
// that function on the figures that can make it; figures without it simply do not list it.
export const EXPORT_FORMATS = Object.freeze([
  { maker: 'png', label: 'PNG image', extension: 'png' },
  // Only where the writer can be fetched (svg-loader.js): not from a module without a folder.
  ...(loadSvgWriter ? [{ maker: 'svg', label: 'SVG image', extension: 'svg' }] : []),
  { maker: 'csv', label: 'CSV data', extension: 'csv' },
  { maker: 'json', label: 'JSON data', extension: 'json' },
]);

let menus = 0; // ids for the menus' aria-controls

// The "Export" button that opens the menu `id` (closed at first).
function menuButton(id, title) {
  const button = element('button', { class: 'fig-export fig-menu-button', text: 'Export' });
  button.type = 'button';
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', id);
  button.setAttribute('aria-label', `Export ${title}`);
  return button;
}

/**
 * The export menu of figure `title`: one "Export" button opening a menu of the EXPORT_FORMATS
 * `makers` has; each item downloads its file. A menu button: Enter, Space or ↓ open it on the
 * first item (↑ on the last), ↑ ↓ Home End move, Escape or Tab close it, and focus returns to the
 * button.
 */
export function exportBar(title, makers) {
  const bar = element('div', { class: 'fig-actions' });
  const id = `fig-menu-${++menus}`;
  const button = menuButton(id, title);
  const menu = element('div', { class: 'fig-menu', id, role: 'menu', hidden: true });
  menu.setAttribute('aria-label', `Export ${title} as`);
  const items = EXPORT_FORMATS.filter((format) => makers[format.maker]).map((format) => {
    const item = element('button', { class: 'fig-menu-item', role: 'menuitem', text: format.label, type: 'button', tabIndex: -1 });
    item.setAttribute('aria-label', `Download ${title} as ${format.label}`);
    item.addEventListener('click', async () => {
      close(true);
      download(await makers[format.maker](), `${fileStem(title)}.${format.extension}`);
    });
    return item;
  });
  menu.append(...items);
  bar.append(button, menu);

  const active = () => bar.getRootNode().activeElement; // the page's or a shadow root's
  const focusItem = (index) => items[(index + items.length) % items.length].focus();
  function open(index = 0) {
    menu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    focusItem(index);
    bar.ownerDocument.addEventListener('pointerdown', outside, true);
  }
  function close(refocus) {
    if (menu.hidden) return;
    menu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    bar.ownerDocument.removeEventListener('pointerdown', outside, true);
    if (refocus) button.focus();
  }
  function outside(event) {
    if (!event.composedPath().includes(bar)) close(false);
  }
  button.addEventListener('click', () => (menu.hidden ? open(0) : close(true)));
  button.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open(event.key === 'ArrowDown' ? 0 : items.length - 1);
    }
  });
  menu.addEventListener('keydown', (event) => {
    const at = items.indexOf(active());
    const moves = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      focusItem(moves[event.key]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  });
  return bar;
}
