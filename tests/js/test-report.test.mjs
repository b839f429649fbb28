// scripts/test-report.mjs, which scripts/test uses to read each layer's totals from its runner's
// machine-readable report: JUnit XML (Catch2, scripts/fuzz) and TAP (node --test). Hand-written
// reports pin the rules (what counts as a test, a failure, a cut-short run); a real node --test
// run checks the TAP reading against node's own totals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/test-report.mjs', import.meta.url));

/** Runs the script in `mode` (junit, tap, failed-files) on `text` (null: no file) → spawnSync's { status, stdout, stderr }. */
function invoke(mode, text) {
  const dir = mkdtempSync(join(tmpdir(), 'test-report-'));
  try {
    const file = join(dir, 'report');
    if (text !== null) writeFileSync(file, text);
    return spawnSync(process.execPath, [SCRIPT, mode, file], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The script's totals of `text` as a `format` report → { passed, failed, printed (its stderr) }. */
function run(format, text) {
  const { stdout, stderr, status } = invoke(format, text);
  assert.equal(status, 0, stderr);
  const [passed, failed] = stdout.trim().split(' ').map(Number);
  return { passed, failed, printed: stderr };
}

const totals = (format, text) => {
  const { passed, failed } = run(format, text);
  return { passed, failed };
};

const CATCH2 = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="posenc_tests" errors="1" failures="1" tests="9" hostname="tbd" time="0.1" timestamp="t">
    <testcase classname="posenc_tests.global" name="a &gt; b for &quot;x&quot;" time="0.1" status="run"/>
    <testcase classname="posenc_tests.global" name="sections/first" time="0.1" status="run"/>
    <testcase classname="posenc_tests.global" name="fails" time="0.1" status="run">
      <failure message="x &lt; y" type="REQUIRE">
FAILED:
  REQUIRE( x &lt; y ) with &lt;testcase name="not a test"/>
      </failure>
    </testcase>
    <testcase classname="posenc_tests.global" name="throws" time="0.1" status="run">
      <error message="boom" type="TEST_CASE"><![CDATA[ <testcase name="inside CDATA"/> ]]></error>
    </testcase>
    <testcase classname="posenc_tests.global" name="may fail" time="0.1" status="run"><skipped message="mayfail"/></testcase>
    <!-- <testcase name="commented out"/> -->
    <system-out/>
    <system-err/>
  </testsuite>
</testsuites>
`;

test('JUnit: a testcase passes unless it holds a failure or an error; skipped ones count neither way', () => {
  assert.deepEqual(totals('junit', CATCH2), { passed: 2, failed: 2 });
});

test('JUnit: a report cut short (unclosed elements) adds a failure; a missing or empty one reads 0 0', () => {
  const cut = CATCH2.slice(0, CATCH2.indexOf('<testcase classname="posenc_tests.global" name="throws"'));
  assert.deepEqual(totals('junit', cut), { passed: 2, failed: 2 }, 'one failed test plus the cut');
  assert.deepEqual(totals('junit', null), { passed: 0, failed: 0 });
  assert.deepEqual(totals('junit', '\n'), { passed: 0, failed: 0 });
});

test('JUnit: scripts/fuzz\'s report, one testcase per target', () => {
  const report = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="libFuzzer" tests="3">
<testcase classname="libFuzzer" name="fuzz_tokenizer" time="31"/>
<testcase classname="libFuzzer" name="fuzz_vectors" time="31"><failure message="exit status 1; log build-fuzz/fuzz_vectors.log"/></testcase>
<testcase classname="libFuzzer" name="fuzz_compare" time="31"/>
</testsuite></testsuites>
`;
  assert.deepEqual(totals('junit', report), { passed: 2, failed: 1 });
});

const TAP = `TAP version 13
# Subtest: parent
    # Subtest: child ok
    ok 1 - child ok
      ---
      duration_ms: 0.1
      ...
    1..1
not ok 1 - parent
  ---
  error: |-
    ok 7 - a line inside YAML is not a test point
  ...
# Subtest: a describe block
    # Subtest: cancelled
    not ok 1 - cancelled
      ---
      failureType: 'cancelledByParent'
      ...
    1..1
not ok 2 - a describe block
  ---
  type: 'suite'
  ...
ok 3 - skipped one # SKIP
ok 4 - todo one # TODO later
ok 5 - a name with \\# in it
# ok 9 - a comment is not a test point
1..5
`;

test('TAP: every point at every depth is a test, describe blocks are not, SKIP and TODO count neither way', () => {
  // child ok, "a name with # in it" pass; parent (failed after its subtest passed) and cancelled fail.
  assert.deepEqual(totals('tap', TAP), { passed: 2, failed: 2 });
});

test('TAP: a stream without its plan, or with fewer points than planned, adds a failure', () => {
  assert.deepEqual(totals('tap', TAP.replace('1..5\n', '')), { passed: 2, failed: 3 });
  assert.deepEqual(totals('tap', TAP.replace('1..5\n', '1..7\n')), { passed: 2, failed: 3 });
  assert.deepEqual(totals('tap', 'TAP version 13\nok 1 - a\nBail out! database down\n1..1\n'), { passed: 1, failed: 1 });
});

test('each failure is printed with the first lines of its reason: a TAP error (quoted or a block), a JUnit message', () => {
  const tap = `TAP version 13
not ok 1 - quoted
  ---
  error: 'the lanes end 12 px below: it''s late'
  code: 'ERR_ASSERTION'
  ...
not ok 2 - block
  ---
  error: |-
    Expected values to be strictly equal:

    3 !== 4
  stack: |-
    not this line
  ...
not ok 3 - long
  ---
  error: |-
${Array.from({ length: 12 }, (_, i) => `    line ${i + 1}`).join('\n')}
  ...
ok 4 - passes
  ---
  error: 'not a failure'
  ...
1..4
`;
  assert.equal(run('tap', tap).printed, [
    '  failed: quoted', "    the lanes end 12 px below: it's late",
    '  failed: block', '    Expected values to be strictly equal:', '    3 !== 4',
    '  failed: long', ...Array.from({ length: 8 }, (_, i) => `    line ${i + 1}`), '    … (4 more lines in the report)', '',
  ].join('\n'));
  const junit = run('junit', CATCH2).printed;
  assert.match(junit, /failed: posenc_tests\.global: fails\n    x < y\n/);
  assert.match(junit, /failed: posenc_tests\.global: throws\n    boom\n/);
});

test('failed-files: the files of the failed tests, once each; none (exit 1) when a failure has no file', () => {
  const files = (text) => {
    const { stdout, status } = invoke('failed-files', text);
    return { status, files: stdout.split('\n').filter(Boolean) };
  };
  const point = (verdict, n, file) => `${verdict} ${n} - t${n}\n  ---\n  location: '${file}:${n}:1'\n  ...\n`;
  const tap = `TAP version 13\n${point('not ok', 1, '/e/a.test.mjs')}${point('ok', 2, '/e/b.test.mjs')}${point('not ok', 3, '/e/c.test.mjs')}${point('not ok', 4, '/e/a.test.mjs')}1..4\n`;
  assert.deepEqual(files(tap), { status: 0, files: ['/e/a.test.mjs', '/e/c.test.mjs'] });
  assert.deepEqual(files(tap.replace('1..4\n', '')), { status: 1, files: [] }, 'cut short: the missing plan is a failure with no file');
  assert.deepEqual(files(`TAP version 13\n${point('ok', 1, '/e/a.test.mjs')}1..1\n`), { status: 1, files: [] }, 'nothing failed');
});

test('TAP: the totals of a real node --test run equal node\'s own pass and fail + cancelled counts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'test-report-run-'));
  try {
    writeFileSync(join(dir, 'sample.test.mjs'), `
import { describe, it, test } from 'node:test';
test('passes', () => {});
test('fails', () => { throw new Error('no'); });
test('skipped', { skip: true }, () => {});
test('parent fails after its subtests', async (t) => { await t.test('sub passes', () => {}); throw new Error('late'); });
describe('suite', () => { it('passes inside', () => {}); it('fails inside', () => { throw new Error('in'); }); });
test('times out', { timeout: 20 }, () => new Promise((resolve) => setTimeout(resolve, 2000)));
`);
    // Without the runner's own NODE_TEST_CONTEXT, which would make the inner run report to this one.
    const { NODE_TEST_CONTEXT, ...env } = process.env;
    let tap;
    try {
      tap = execFileSync(process.execPath, ['--test', '--test-reporter=tap', join(dir, 'sample.test.mjs')], { encoding: 'utf8', cwd: dir, env });
      assert.fail('the sample run has failures, so node --test must exit non-zero');
    } catch (error) {
      if (error.code === 'ERR_ASSERTION') throw error;
      tap = error.stdout;
    }
    const count = (name) => Number(tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))[1]);
    assert.deepEqual(totals('tap', tap), { passed: count('pass'), failed: count('fail') + count('cancelled') });
    assert.deepEqual(totals('tap', tap), { passed: 3, failed: 4 }, 'passes, sub passes, passes inside; fails, parent, fails inside, times out');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('scripts/test\'s node --test: a file that never ends is one failure naming that file and the test it was in; one kept alive after its tests passed fails at the limit too', () => {
  const dir = mkdtempSync(join(tmpdir(), 'test-report-hang-'));
  try {
    // A browser that never answers: a test awaits for ever while a timer keeps the process alive.
    writeFileSync(join(dir, 'hangs.test.mjs'), `
import { describe, it } from 'node:test';
describe('a page', () => {
  it('before the hang', () => {});
  it('never ends', () => { setInterval(() => {}, 1000); return new Promise(() => {}); });
  it('after the hang', () => {});
});
`);
    // A server left open: every test passed, but a handle keeps the file running. It fails at the
    // limit too, and is not ended early (--test-force-exit): under Node 20 that also ends files
    // whose tests are still running, which then go unreported.
    writeFileSync(join(dir, 'open.test.mjs'), `
import { test } from 'node:test';
test('passes, leaving a timer', () => { setInterval(() => {}, 1000); });
`);
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const line = readFileSync(join(root, 'scripts/test'), 'utf8').match(/^node_test=\([^)]*\)$/m);
    assert.ok(line, 'scripts/test defines its node --test command as the array node_test');
    const { NODE_TEST_CONTEXT, ...env } = process.env;
    const unfinished = join(dir, 'unfinished.log');
    const files = ['hangs.test.mjs', 'open.test.mjs'].map((f) => join(dir, f));
    const started = Date.now();
    // From the repository's root, as scripts/test runs it (the array names the reporter by $PWD).
    const { stdout, status } = spawnSync('bash', ['-c', `${line[0]}; "\${node_test[@]}" --test-reporter-destination="$0" "$@"`, unfinished, ...files], {
      cwd: root, encoding: 'utf8', env: { ...env, NODE_TEST_FILE_MS: '1500' }, timeout: 60000,
    });
    assert.notEqual(status, null, 'the run ended by itself');
    assert.notEqual(status, 0);
    assert.ok(Date.now() - started < 30000, 'the run ends soon after the file limit');
    assert.deepEqual(totals('tap', stdout), { passed: 2, failed: 2 }, 'before the hang, passes leaving a timer; the two files');
    const { printed } = run('tap', stdout);
    assert.match(printed, /failed: .*hangs\.test\.mjs\n\s+test timed out after 1500ms/);
    assert.match(printed, /failed: .*open\.test\.mjs\n\s+test timed out after 1500ms/);
    assert.deepEqual(invoke('failed-files', stdout).stdout.trim().split('\n'), files);
    assert.equal(readFileSync(unfinished, 'utf8'), `${files[0]}: unfinished: a page › never ends\n${files[1]}: unfinished: (none begun)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
