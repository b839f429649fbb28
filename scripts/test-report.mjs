// Reads one test layer's machine-readable report and prints its totals for scripts/test.
// Usage: node scripts/test-report.mjs junit|tap FILE
//        node scripts/test-report.mjs failed-files FILE   (a TAP report)
// Prints "PASSED FAILED" on stdout (one line) and the first failing tests' names on stderr, each
// with the first lines of its reason (a TAP point's `error`, a JUnit failure's message), because
// a fresh clone's CI keeps only what scripts/test prints, not build-test-logs/.
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
const MAX_REASON_LINES = 8;
const MAX_REASON_CHARS = 300;

const [format, file] = process.argv.slice(2);
const parsers = { junit: junitTotals, tap: tapTotals };
if (format === 'failed-files' && file) printFailedFiles(file);
else if (!parsers[format] || !file) {
  console.error('usage: node scripts/test-report.mjs junit|tap|failed-files FILE');
  process.exit(2);
} else printTotals(format, file);

function printTotals(format, file) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`test-report: no report at ${file} (${error.code}); the layer ran nothing`);
  }
  const { passed, failed, failures } = text.trim() ? parsers[format](text) : { passed: 0, failed: 0, failures: [] };
  for (const { name, reason } of failures.slice(0, MAX_NAMES_SHOWN)) {
    console.error(`  failed: ${name}`);
    for (const line of reasonLines(reason)) console.error(`    ${line}`);
  }
  if (failures.length > MAX_NAMES_SHOWN) console.error(`  … and ${failures.length - MAX_NAMES_SHOWN} more (see ${file})`);
  console.log(`${passed} ${failed}`);
}

/**
 * failed-files: the test files of a TAP report's failed tests, one per line on stdout (node
 * --test writes each failed point's `location`), so that scripts/test can run them again. Exits
 * 1, printing nothing, when a failure has no file (a run cut short, a file that failed to load).
 */
function printFailedFiles(file) {
  const { failures } = tapTotals(readFileSync(file, 'utf8'));
  const files = failures.map((f) => f.location?.replace(/:\d+:\d+$/, ''));
  if (!failures.length || files.some((f) => !f)) process.exit(1);
  console.log([...new Set(files)].join('\n'));
}

/** A failure's reason as at most MAX_REASON_LINES non-blank lines of at most MAX_REASON_CHARS. */
function reasonLines(reason = '') {
  const lines = reason.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l.trim());
  const shown = lines.slice(0, MAX_REASON_LINES).map((l) => (l.length > MAX_REASON_CHARS ? `${l.slice(0, MAX_REASON_CHARS)}…` : l));
  if (lines.length > MAX_REASON_LINES) shown.push(`… (${lines.length - MAX_REASON_LINES} more lines in the report)`);
  return shown;
}

/** Totals of a JUnit XML report, read element by element (no DTDs or entities beyond XML's five). */
function junitTotals(xml) {
  // Comments and CDATA may hold anything that looks like a tag; text elsewhere holds no '<'.
  const body = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
  const open = [];
  let current = null;  // the <testcase> being read: { name, failed, skipped, reason }
  let passed = 0;
  const failures = [];
  const finish = (testcase) => {
    if (testcase.failed) failures.push({ name: testcase.name, reason: testcase.reason });
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
      current.reason ??= attributeValue(attributes, 'message');
    } else if (current && name === 'skipped') {
      current.skipped = true;
    }
    if (!selfClosing) open.push(name);
  }
  if (current) finish({ ...current, failed: true });
  if (open.length > 0) failures.push({ name: `(report cut short inside <${open.join('><')}>)` });
  return { passed, failed: failures.length, failures };
}

function testName(attributes) {
  const name = attributeValue(attributes, 'name') ?? '?';
  const className = attributeValue(attributes, 'classname');
  return className ? `${className}: ${name}` : name;
}

/** An attribute's value with XML's five entities and numeric character references read. */
function attributeValue(attributes, key) {
  const raw = attributes.match(new RegExp(`\\s${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`))?.slice(1).find((v) => v !== undefined);
  return raw?.replace(/&(lt|gt|quot|apos|amp|#x[0-9a-fA-F]+|#\d+);/g, (_, e) => (e[0] === '#'
    ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
    : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]));
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
      if (pending.ok) passed += 1; else failures.push({ name: pending.name, reason: pending.reason, location: pending.location });
    }
    pending = null;
  };
  let yamlIndent = null;  // inside a YAML diagnostic block opened at this indentation
  let blockLines = null;  // the lines of its `error: |-` block scalar, while reading them
  let topLevelPoints = 0;
  let topLevelPlan = null;
  for (const line of tap.split(/\r?\n/)) {
    const indent = line.length - line.trimStart().length;
    if (yamlIndent !== null) {
      if (blockLines && (indent > yamlIndent || line.trim() === '')) { blockLines.push(line.slice(yamlIndent + 2)); continue; }
      if (blockLines && pending) pending.reason = blockLines.join('\n');
      blockLines = null;
      if (indent === yamlIndent && line.trim() === '...') yamlIndent = null;
      else if (pending && indent === yamlIndent && line.trim() === "type: 'suite'") pending.suite = true;
      else if (pending && indent === yamlIndent && /^location:/.test(line.trim())) {
        pending.location = yamlScalar(line.trim().slice('location:'.length).trim());
      } else if (pending && indent === yamlIndent && /^error:/.test(line.trim())) {
        const value = line.trim().slice('error:'.length).trim();
        if (/^[|>][-+]?$/.test(value)) blockLines = [];
        else pending.reason = yamlScalar(value);
      }
      continue;
    }
    if (line.trim() === '---') { yamlIndent = indent; continue; }
    if (line.trim() === '') continue;
    settle();
    if (/^\s*Bail out!/.test(line)) { failures.push({ name: line.trim() }); continue; }
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
  if (topLevelPlan === null) failures.push({ name: '(no plan line: the run did not finish)' });
  else if (topLevelPoints < topLevelPlan) failures.push({ name: `(${topLevelPlan - topLevelPoints} of ${topLevelPlan} planned tests never reported)` });
  return { passed, failed: failures.length, failures };
}

/** A one-line YAML scalar as node's TAP reporter writes it: 'single-quoted' ('' is '), "double-quoted" (JSON escapes) or plain. */
function yamlScalar(value) {
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  if (value.startsWith('"') && value.endsWith('"')) {
    try { return JSON.parse(value); } catch { return value.slice(1, -1); }
  }
  return value;
}
