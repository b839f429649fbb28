// Reads one test layer's machine-readable report and prints its totals for scripts/test.
// Usage: node scripts/test-report.mjs junit|tap FILE
// Prints "PASSED FAILED" on stdout (one line) and the first failing tests' names on stderr.
//
//   junit  Catch2's JUnit reporter (-r junit) and scripts/fuzz's report: every <testcase> is one
//          test (for Catch2: a test case or one of its sections that ran assertions); it failed
//          when it holds a <failure> or <error>, it is skipped when it holds <skipped>.
//   tap    node --test's TAP reporter: every test point at every depth is one test, as node's own
//          "# pass" and "# fail" + "# cancelled" count them (describe() blocks are not tests);
//          SKIP and TODO points are neither. TAP rather than
//          node's JUnit reporter: in Node 20 the latter drops the failure of a test that fails
//          after its subtests passed.
//
// A report cut short (a crash, an abort under a sanitizer, a killed runner) must not read as a
// clean run: an unclosed JUnit element or a TAP plan with fewer points than it announced counts
// as one more failure, and a missing or empty file gives "0 0", which scripts/test records as a
// layer that ran nothing (a failure).
import { readFileSync } from 'node:fs';

const MAX_NAMES_SHOWN = 10;

const [format, file] = process.argv.slice(2);
const parsers = { junit: junitTotals, tap: tapTotals };
if (!parsers[format] || !file) {
  console.error('usage: node scripts/test-report.mjs junit|tap FILE');
  process.exit(2);
}

let text = '';
try {
  text = readFileSync(file, 'utf8');
} catch (error) {
  console.error(`test-report: no report at ${file} (${error.code}); the layer ran nothing`);
}
const { passed, failed, failures } = text.trim() ? parsers[format](text) : { passed: 0, failed: 0, failures: [] };
for (const name of failures.slice(0, MAX_NAMES_SHOWN)) console.error(`  failed: ${name}`);
if (failures.length > MAX_NAMES_SHOWN) console.error(`  … and ${failures.length - MAX_NAMES_SHOWN} more (see ${file})`);
console.log(`${passed} ${failed}`);

/** Totals of a JUnit XML report, read element by element (no DTDs or entities beyond XML's five). */
function junitTotals(xml) {
  // Comments and CDATA may hold anything that looks like a tag; text elsewhere holds no '<'.
  const body = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
  const open = [];
  let current = null;  // the <testcase> being read: { name, failed, skipped }
  let passed = 0;
  const failures = [];
  const finish = (testcase) => {
    if (testcase.failed) failures.push(testcase.name);
    else if (!testcase.skipped) passed += 1;
  };
  for (const [, closing, name, attributes, selfClosing] of body.matchAll(tag)) {
    if (closing) {
      open.pop();
      if (name === 'testcase' && current) { finish(current); current = null; }
      continue;
    }
    if (name === 'testcase') {
      const testcase = { name: testName(attributes), failed: false, skipped: false };
      if (selfClosing) finish(testcase); else current = testcase;
    } else if (current && (name === 'failure' || name === 'error')) {
      current.failed = true;
    } else if (current && name === 'skipped') {
      current.skipped = true;
    }
    if (!selfClosing) open.push(name);
  }
  if (current) finish({ ...current, failed: true });
  if (open.length > 0) failures.push(`(report cut short inside <${open.join('><')}>)`);
  return { passed, failed: failures.length, failures };
}

function testName(attributes) {
  const value = (key) => attributes.match(new RegExp(`\\s${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`))?.slice(1).find((v) => v !== undefined);
  const unescape = (s) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]);
  const name = unescape(value('name') ?? '?');
  const className = value('classname');
  return className ? `${unescape(className)}: ${name}` : name;
}

/** Totals of a TAP 13/14 stream with nested subtests (indented four spaces per level). */
function tapTotals(tap) {
  const point = /^(\s*)(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?(.*)$/;
  const plan = /^(\s*)1\.\.(\d+)/;
  let passed = 0;
  const failures = [];
  // A point's verdict counts once its YAML block is read: node marks describe() blocks there
  // (type: 'suite'), and like node's own totals these are not tests (their failures reach their
  // tests, which are cancelled).
  let pending = null;
  const settle = () => {
    if (pending && !pending.suite) {
      if (pending.ok) passed += 1; else failures.push(pending.name);
    }
    pending = null;
  };
  let yamlIndent = null;  // inside a YAML diagnostic block opened at this indentation
  let topLevelPoints = 0;
  let topLevelPlan = null;
  for (const line of tap.split(/\r?\n/)) {
    const indent = line.length - line.trimStart().length;
    if (yamlIndent !== null) {
      if (indent === yamlIndent && line.trim() === '...') yamlIndent = null;
      else if (pending && indent === yamlIndent && line.trim() === "type: 'suite'") pending.suite = true;
      continue;
    }
    if (line.trim() === '---') { yamlIndent = indent; continue; }
    if (line.trim() === '') continue;
    settle();
    if (/^\s*Bail out!/.test(line)) { failures.push(line.trim()); continue; }
    const planMatch = line.match(plan);
    if (planMatch) {
      if (planMatch[1] === '') topLevelPlan = Number(planMatch[2]);
      continue;
    }
    const match = line.match(point);
    if (!match) continue;
    const [, lead, verdict, , rest] = match;
    if (lead === '') topLevelPoints += 1;
    if (/(?:^|[^\\])#\s*(SKIP|TODO)\b/i.test(rest)) continue;
    pending = { ok: verdict === 'ok', name: rest.replace(/\\#/g, '#').trim() || '(unnamed)', suite: false };
  }
  settle();
  if (topLevelPlan === null) failures.push('(no plan line: the run did not finish)');
  else if (topLevelPoints < topLevelPlan) failures.push(`(${topLevelPlan - topLevelPoints} of ${topLevelPlan} planned tests never reported)`);
  return { passed, failed: failures.length, failures };
}
