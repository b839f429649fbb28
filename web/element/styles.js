// <posenc-lab>'s styles: the page's stylesheet (web/styles/lab.css), re-rooted at the host, plus
// the element's own; host pages theme it through --posenc-* custom properties.
import pageCss from '../styles/lab.css';

const ELEMENT_CSS = `
:host {
  all: initial;
  color-scheme: inherit;
  display: block;
  box-sizing: border-box;
  max-width: var(--posenc-max-width, 100%);
  margin: 1em 0;
  padding: 10px 12px;
  --bg: var(--posenc-background, light-dark(#fbfbfa, #15171a));
  --fg: var(--posenc-color, light-dark(#1c1d1f, #e6e7ea));
  --muted: var(--posenc-muted, light-dark(#5a5e66, #a2a7b0));
  --panel: var(--posenc-background, light-dark(#ffffff, #1e2125));
  --border: var(--posenc-border, light-dark(#d5d7dc, #3a3f47));
  --accent: var(--posenc-accent, light-dark(#1d5fd1, #7fb0ff));
  --focus: var(--posenc-accent, light-dark(#1d5fd1, #7fb0ff));
  --token-bg: var(--posenc-token-background, light-dark(#eef0f4, #2a2e34));
  --select: var(--posenc-highlight, light-dark(#d4a017, #f2c14e));
  --error: light-dark(#b42318, #ff8a80);
  --notice-bg: light-dark(#fff4d6, #3a3220);
  --unknown: light-dark(#a4470b, #ffb37a);
  --radius: var(--posenc-radius, 6px);
  font-family: var(--posenc-font, system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif);
  font-size: var(--posenc-font-size, 1rem);
  line-height: 1.45;
  color: var(--fg);
  background: var(--bg);
  border: 1px solid var(--border);
  border-radius: var(--radius);
}
@supports not (color: light-dark(#000, #fff)) {
  :host {
    --bg: var(--posenc-background, #fbfbfa); --fg: var(--posenc-color, #1c1d1f); --muted: var(--posenc-muted, #5a5e66);
    --panel: var(--posenc-background, #fff); --border: var(--posenc-border, #d5d7dc); --accent: var(--posenc-accent, #1d5fd1);
    --focus: var(--posenc-accent, #1d5fd1); --token-bg: var(--posenc-token-background, #eef0f4); --select: var(--posenc-highlight, #d4a017);
    --error: #b42318; --notice-bg: #fff4d6; --unknown: #a4470b;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --bg: var(--posenc-background, #15171a); --fg: var(--posenc-color, #e6e7ea); --muted: var(--posenc-muted, #a2a7b0);
      --panel: var(--posenc-background, #1e2125); --border: var(--posenc-border, #3a3f47); --accent: var(--posenc-accent, #7fb0ff);
      --focus: var(--posenc-accent, #7fb0ff); --token-bg: var(--posenc-token-background, #2a2e34); --select: var(--posenc-highlight, #f2c14e);
      --error: #ff8a80; --notice-bg: #3a3220; --unknown: #ffb37a;
    }
  }
}
:host([hidden]) { display: none; }
.pl-edit { display: grid; gap: 6px; margin-bottom: 6px; }
.pl-edit textarea { font-size: 1em; padding: 4px 8px; }
.pl-label { font-weight: 600; font-size: 0.9em; }
.pl-controls { display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 0.88em; align-items: center; }
.pl-controls label { display: inline-flex; align-items: center; gap: 4px; }
.pl-controls input[type="number"] { width: 6em; font: inherit; padding: 2px 4px; border: 1px solid var(--border); border-radius: 4px; background: var(--bg); color: var(--fg); }
.pl-sentence-text { margin: 0 0 4px; font-style: italic; }
.tokens { max-height: 8em; margin-bottom: 4px; }
.token { font-size: 0.88em; }
.pl-note { font-size: 0.85em; margin: 4px 0; }
.pl-panels { display: grid; gap: 12px; transition: opacity 0.25s ease-out; }
.pl-panels.is-pending { opacity: 0.35; }
.pl-title { font-weight: 600; font-size: 0.95em; margin: 4px 0; }
.pl-lanes { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 180px), 1fr)); gap: 10px; }
.pl-figure { margin: 0; min-width: 0; max-width: var(--posenc-figure-width, 100%); }
.pl-figure figcaption { font-size: 0.85em; color: var(--muted); margin-bottom: 2px; }
.pl-status { margin: 6px 0 0; font-size: 0.78em; color: var(--muted); font-variant-numeric: tabular-nums; }
.pl-status:empty { display: none; }
.pl.no-export .fig-actions { display: none; }
.cell-readout { min-height: 1.4em; }
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { transition: none !important; animation: none !important; scroll-behavior: auto !important; }
}
`;
// The page's :root rules cannot match inside a shadow tree; its variables come from :host above.
const STYLES = `${pageCss.replace(/:root\s*\{[^}]*\}/g, '').replace(/@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*\}/g, '')}\n${ELEMENT_CSS}`;

// One constructed stylesheet shared by every element (a host page's CSP style-src does not
// apply to it); a <style> in each shadow root where constructed sheets are missing.
let sheet = null;
export function adoptStyles(root) {
  if ('adoptedStyleSheets' in ShadowRoot.prototype && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLES);
    }
    root.adoptedStyleSheets = [sheet];
    return;
  }
  if (!root.querySelector('style')) {
    const style = document.createElement('style');
    style.textContent = STYLES;
    root.prepend(style);
  }
}

