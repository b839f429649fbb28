// Turns the page's formulas, written once in TeX, into MathML at build time (Temml), so the page
// ships MathML and no math library. In web/*.html a formula is `<span class="math-wrap">\(TeX\)</span>`
// (the TeX as HTML text: write < as &lt; and & as &amp;). Rewrites each HTML file in OUT_DIR in
// place; any formula Temml cannot parse, and any \( left unrendered, fails the build.
// Usage: node scripts/render-math.mjs OUT_DIR   (run by scripts/build on its staging copy of web/)
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const [outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node scripts/render-math.mjs OUT_DIR');
  process.exit(2);
}

let temml;
try {
  ({ default: temml } = await import('temml'));
} catch {
  console.error('render-math: temml is missing (a dev dependency): run ./scripts/setup (npm ci) first');
  process.exit(1);
}

const FORMULA = /(<span class="math-wrap">)\\\(([\s\S]*?)\\\)(<\/span>)/g;
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** MathML for one inline formula; throws naming the formula when Temml cannot parse it. */
function mathml(tex) {
  const source = tex.replace(/&(lt|gt|amp|quot|apos);/g, (_, name) => ENTITIES[name]).trim();
  let markup;
  try {
    markup = temml.renderToString(source, { displayMode: false, throwOnError: true });
  } catch (error) {
    throw new Error(`render-math: cannot render \\(${source}\\): ${error.message}`);
  }
  return withoutStyleAttributes(markup, source);
}

// The page's CSP (style-src 'self') refuses style attributes. Temml writes one kind: an accent
// (\tilde) kept at full size with style="math-depth:0;"; the same rule comes from styles/lab.css
// through a class. Any other style attribute fails the build rather than being lost in the browser.
function withoutStyleAttributes(markup, source) {
  const moved = markup.replace(/<(m[a-z]+)([^>]*?)\sstyle="math-depth:0;"([^>]*)>/g, (_, tag, before, after) => {
    const attributes = before + after;
    return /\sclass="/.test(attributes)
      ? `<${tag}${attributes.replace(/\sclass="([^"]*)"/, ' class="$1 tml-depth-0"')}>`
      : `<${tag}${attributes} class="tml-depth-0">`;
  });
  if (/<[^>]*\sstyle=/.test(moved)) throw new Error(`render-math: Temml styled \\(${source}\\) in a way styles/lab.css does not cover`);
  return moved;
}

let failed = false;
for (const name of (await readdir(outDir)).filter((file) => file.endsWith('.html'))) {
  const path = join(outDir, name);
  const html = await readFile(path, 'utf8');
  let count = 0;
  let rendered;
  try {
    rendered = html.replace(FORMULA, (_, open, tex, close) => { count += 1; return open + mathml(tex) + close; });
  } catch (error) {
    console.error(`${error.message} (in ${name})`);
    failed = true;
    continue;
  }
  if (/\\\(/.test(rendered)) {
    console.error(`render-math: ${name} still has a \\( outside a math-wrap span`);
    failed = true;
    continue;
  }
  if (count > 0) {
    await writeFile(path, rendered);
    console.log(`render-math: ${name}: ${count} formulas → MathML`);
  }
}
process.exit(failed ? 1 : 0);
