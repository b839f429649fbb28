// Figure export: PNG pictures and CSV/JSON data, downloaded through a temporary object URL, and
// the PNG / CSV / JSON buttons every figure shows.
import { element } from './dom.js';

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
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, out.width, out.height);
  if (title) {
    context.fillStyle = '#1c1d1f';
    context.font = '14px system-ui, sans-serif';
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

export function jsonBlob(value) {
  const plain = JSON.stringify(value, (key, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v));
  return new Blob([plain], { type: 'application/json' });
}

/** File names from a figure's title: lowercase words joined by dashes. */
export function fileStem(title) {
  return `posenc-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

/** The PNG / CSV / JSON buttons of figure `title`: each calls its maker and downloads the Blob. */
export function exportBar(title, { png, csv, json }) {
  const bar = element('div', { class: 'fig-actions' });
  const button = (label, what, run) => {
    const b = element('button', { class: 'fig-export', text: label });
    b.type = 'button';
    b.setAttribute('aria-label', `Download ${title} as ${what}`);
    b.addEventListener('click', run);
    bar.append(b);
  };
  button('PNG', 'PNG image', async () => download(await png(), `${fileStem(title)}.png`));
  button('CSV', 'CSV data', () => download(csv(), `${fileStem(title)}.csv`));
  button('JSON', 'JSON data', () => download(json(), `${fileStem(title)}.json`));
  return bar;
}
