// Functions in web/ fit on a screen: none is longer than LIMIT lines, first line of its head to
// its closing brace, unless EXCEPTIONS names it with its reason. The JavaScript is parsed with
// TypeScript's parser (a dev dependency; it reads plain JS), so strings, template literals and
// regular expressions cannot confuse the count. Every function, method, accessor, constructor and
// arrow counts, and one nested in another counts with it: a factory closure is as long as all it
// holds, so a long closure cannot pass as many short inner functions. A planted long function
// shows the check can fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { limitChecks } from './function-limit.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIMIT = 60; // as for src/ (tests/js/function-length.test.mjs)

// 'file:function' → why it stays whole.
const EXCEPTIONS = new Map([
]);

/** The name a function is known by: its own, its variable's, its property's, or '(anonymous)'. */
function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** [{ name, line, lines }] for every outermost function in a JS text (nested ones count with it). */
export function functionsOf(text, file = 'file.js') {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const last = source.getLineAndCharacterOfPosition(node.end).line + 1;
      found.push({ name: nameOf(node, source), line, lines: last - line + 1 });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sources(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.m?js$/.test(entry.name) ? [path] : [];
  });
}

describe('function length in web/', () => {
  const all = sources('web').flatMap((file) => functionsOf(readFileSync(join(ROOT, file), 'utf8'), file).map((f) => ({ ...f, file })));

  it('reads the functions', () => {
    assert.ok(all.length > 300, `only ${all.length} functions found`);
    assert.ok(all.some((f) => f.file === 'web/train/panel.js' && f.name === 'mountTrain'), 'finds the Train section\'s mountTrain');
    assert.ok(all.some((f) => f.file === 'web/figures/chart-figure.js' && f.name === '#paint'), 'finds private methods');
  });

  limitChecks(() => all, EXCEPTIONS, LIMIT);

  it('counts a long closure, its inner functions included, and braces in strings, templates and regexps do not count', () => {
    const body = Array.from({ length: LIMIT }, (_, i) => `    x += ${i}; s += '}' + \`{\${x}\` + /[{]/.source;`).join('\n');
    const text = `class A {\n  get one() { return 1; }\n}\nexport function longOne(x) {\n  let s = '';\n  const inner = () => {\n${body}\n  };\n  return inner();\n}\nconst arrow = (y) => y + 1;\n`;
    const found = functionsOf(text);
    assert.deepEqual(found.map((f) => f.name), ['one', 'longOne', 'arrow']);
    assert.deepEqual(found.map((f) => f.line), [2, 4, LIMIT + 10]);
    assert.equal(found[1].lines, LIMIT + 6);
    assert.ok(found[1].lines > LIMIT, 'the planted closure is over the limit');
  });
});
