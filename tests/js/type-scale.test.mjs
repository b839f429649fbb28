// The page's font sizes (web/styles/lab.css says why): every font-size in the page's stylesheets is
// a rem size from SCALE, or one of the few em and px sizes a mark needs relative to its parent or
// its figure. Each further size is one more font lookup for the renderer while the page loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const SHEETS = [...readdirSync(new URL('web/styles/', root)).filter((f) => f.endsWith('.css')).map((f) => `web/styles/${f}`), 'web/train/train.css'];
// The scale, in rem: small print, notes and controls, body text, headings.
const SCALE = ['0.8rem', '0.88rem', '0.92rem', '0.95rem', '1.05rem', '1.15rem', '1.25rem', '1.4rem', '1.5rem'];
// Sizes relative to the parent, each with its selector: a chip's position and unknown mark, a
// heading's count, MathML (which scales its scripts itself); the token axes' 10px labels.
const RELATIVE = new Map([
  ['.token::after', '0.7em'], ['.token.is-unknown .token-text::after', '0.8em'], ['.unknown-mark', '0.8em'],
  ['.count', '0.9em'], ['math', '1.05em'], ['.token-axis', '10px'],
]);

/** [selector, value] for every font-size declaration in a stylesheet's text. */
function fontSizes(css) {
  const out = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const rule of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    for (const m of rule[2].matchAll(/font-size:\s*([^;]+?)\s*(?:;|$)/g)) out.push([rule[1].trim(), m[1]]);
  }
  return out;
}

test('every font size in the page\'s stylesheets is on the scale or a listed relative size', () => {
  let seen = 0;
  for (const sheet of SHEETS) {
    for (const [selector, value] of fontSizes(readFileSync(new URL(sheet, root), 'utf8'))) {
      seen += 1;
      if (SCALE.includes(value)) continue;
      assert.equal(RELATIVE.get(selector), value, `${sheet}: ${selector} { font-size: ${value} } is off the scale (${SCALE.join(', ')})`);
    }
  }
  assert.ok(seen > 50, `read ${seen} font sizes: the sheets were not parsed`);
});

test('the reader finds sizes inside at-rules and multi-line rules, and names the selector', () => {
  const css = '@media (max-width: 9px) {\n  .a, .b { color: red; font-size: 0.83rem; }\n}\n.c {\n  font-size: 1em\n}';
  assert.deepEqual(fontSizes(css), [['.a, .b', '0.83rem'], ['.c', '1em']]);
});
