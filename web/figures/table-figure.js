// A table of numbers as a figure: a <table> with the pictures' export buttons.
import { csvBlob, exportBar, jsonBlob, svgBlob } from './export.js';
import { EXPORT_FONT, EXPORT_INK } from './export-style.js';
import { element } from './dom.js';

/**
 * A table of numbers with the same export buttons as the pictures (its PNG is the table drawn
 * as text). update({ columns: [..], rows: [[..]], label, note? }).
 */
export class TableFigure {
  constructor(slot, { title }) {
    this.title = title;
    this.spec = null;
    this.root = element('div', { class: 'fig table-fig' });
    this.table = element('table', { class: 'data-table' });
    this.caption = element('caption', { class: 'visually-hidden' });
    this.head = element('thead');
    this.body = element('tbody');
    this.table.append(this.caption, this.head, this.body);
    const scroller = element('div', { class: 'table-scroll' });
    scroller.append(this.table);
    this.note = element('p', { class: 'table-note' });
    this.root.append(scroller, this.note, exportBar(title, {
      png: () => this.#png(),
      svg: () => this.toSvg(),
      csv: () => csvBlob(this.spec?.columns ?? [], this.spec?.rows ?? []),
      json: () => jsonBlob({ title: this.title, description: this.spec?.label, columns: this.spec?.columns, rows: this.spec?.rows }),
    }));
    slot.replaceChildren(this.root);
  }

  /** The table drawn as a PNG Blob, as its PNG button downloads it. */
  toPng() {
    return this.#png();
  }

  /** The table as an SVG Blob: its cells as text, as the page shows them. */
  toSvg() {
    const { columns, rows, label, note } = this.spec ?? { columns: [], rows: [] };
    return svgBlob('tableSvg', { title: this.title, label, columns, rows: this.#texts(rows), note });
  }

  /** The rows' cells as the page writes them (spec.format, else String). */
  #texts(rows) {
    const format = this.spec?.format ?? String;
    return rows.map((row, r) => row.map((cell, c) => format(cell, r, c)));
  }

  update(spec) {
    this.spec = spec;
    this.caption.textContent = spec.label;
    const headRow = element('tr');
    headRow.append(...spec.columns.map((c) => { const th = element('th', { text: c }); th.scope = 'col'; return th; }));
    this.head.replaceChildren(headRow);
    this.body.replaceChildren(...this.#texts(spec.rows).map((row) => {
      const tr = element('tr');
      row.forEach((cell, c) => {
        const td = element(c === 0 ? 'th' : 'td', { text: cell });
        if (c === 0) td.scope = 'row';
        tr.append(td);
      });
      return tr;
    }));
    this.note.textContent = spec.note ?? '';
    this.note.hidden = !spec.note;
  }

  #png() {
    const spec = this.spec ?? { columns: [], rows: [] };
    const lines = [spec.columns, ...this.#texts(spec.rows)];
    const colWidth = 180;
    const canvas = document.createElement('canvas');
    canvas.width = colWidth * Math.max(1, spec.columns.length) + 20;
    canvas.height = 40 + lines.length * 24 + 30;
    const g = canvas.getContext('2d');
    g.fillStyle = EXPORT_INK.paper; g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = EXPORT_INK.text;
    g.font = `bold 14px ${EXPORT_FONT}`;
    g.fillText(spec.label ?? this.title, 10, 22, canvas.width - 20);
    lines.forEach((line, r) => {
      g.font = `${r === 0 ? 'bold ' : ''}13px ${EXPORT_FONT}`;
      line.forEach((cell, c) => g.fillText(String(cell), 10 + c * colWidth, 50 + r * 24, colWidth - 8));
    });
    if (spec.note) { g.font = `12px ${EXPORT_FONT}`; g.fillText(spec.note, 10, canvas.height - 12, canvas.width - 20); }
    return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  }
}
