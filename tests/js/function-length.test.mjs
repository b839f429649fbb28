// Functions in src/ fit on a screen: none is longer than LIMIT lines, signature to closing brace,
// unless EXCEPTIONS names it with its reason. The C++ is read by a small brace matcher (comments,
// strings and character literals blanked first): a function is an outermost `{ … }` whose head
// has a parameter list and is not a control statement, a namespace, a type or an initialiser, so
// a lambda counts with the function around it. A planted long function shows the check can fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { limitChecks } from './function-limit.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const LIMIT = 60;

// 'file:function' → why it stays whole. Empty today; a candidate must be one algorithm whose steps
// share state that splitting would have to thread through every call.
const EXCEPTIONS = new Map([]);

/** The text with comments, strings and character literals replaced by spaces (newlines kept). */
function blank(text) {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (m) => m.replace(/[^\n]/g, ' '));
}

const NOT_A_FUNCTION = /^(?:if|for|while|switch|namespace|struct|class|enum|union|do|else|try|catch|return)\b|=$|^#/;

/** [{ name, line, lines }] for every function definition in a C++ text. */
export function functionsOf(text) {
  const code = blank(text);
  const found = [];
  const stack = []; // { fn: boolean, line, name }
  let head = 0;
  let line = 1;
  let headLine = 1;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\n') { line++; continue; }
    if (ch !== '{' && ch !== '}' && ch !== ';') continue;
    if (ch === '{') {
      const h = code.slice(head, i).replace(/\s+/g, ' ').trim();
      const inFunction = stack.some((s) => s.fn);
      const fn = !inFunction && h.includes('(') && h.includes(')') && !NOT_A_FUNCTION.test(h);
      const name = fn ? (/([~\w:]+)\s*\(/.exec(h.replace(/__attribute__\(\([^)]*\)\)/g, ''))?.[1] ?? '?') : '';
      stack.push({ fn, line: headLine, name });
    } else if (ch === '}') {
      const top = stack.pop();
      if (top?.fn) found.push({ name: top.name, line: top.line, lines: line - top.line + 1 });
    }
    head = i + 1;
    // The head's first line: the next non-blank character after this one.
    let j = head;
    let l = line;
    while (j < code.length && /\s/.test(code[j])) { if (code[j] === '\n') l++; j++; }
    headLine = l;
  }
  return found;
}

function sources(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.(c|h)pp$/.test(entry.name) ? [path] : [];
  });
}

describe('function length in src/', () => {
  const all = sources('src').flatMap((file) => functionsOf(readFileSync(join(ROOT, file), 'utf8')).map((f) => ({ ...f, file })));

  it('reads the functions', () => {
    assert.ok(all.length > 300, `only ${all.length} functions found`);
    assert.ok(all.some((f) => f.name === 'run_scheme'), 'finds compare.cpp\'s run_scheme');
  });

  limitChecks(() => all, EXCEPTIONS, LIMIT);

  it('counts a long function, its lambdas included, and not what is not a function', () => {
    const body = Array.from({ length: LIMIT }, (_, i) => `    x += ${i}; // { not a brace "}"`).join('\n');
    const text = `namespace a {\nstruct S { int f() const { return 1; } };\nint long_one(int x) {\n  auto g = [&](int y) {\n${body}\n  };\n  return g(x);\n}\n}  // namespace a\n`;
    const found = functionsOf(text);
    assert.deepEqual(found.map((f) => f.name), ['f', 'long_one']);
    assert.equal(found[1].line, 3);
    assert.equal(found[1].lines, LIMIT + 5);
  });
});
