// How exported files look whatever the page's theme (PNG and SVG alike): dark ink on white paper,
// so a figure pasted into a paper or a slide reads as it would printed. Maps keep their palettes.
export const EXPORT_INK = Object.freeze({ text: '#1c1d1f', grid: '#d5d7dc', paper: '#ffffff' });
export const EXPORT_FONT = 'system-ui, sans-serif';
