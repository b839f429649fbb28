// The two checks every function-length test makes, over whatever reader found the functions:
// nothing over the limit but the listed exceptions, and no exception that is no longer long (a
// split function leaves the list). functions(): [{ file, line, name, lines }]; exceptions: a Map
// 'file:name' → reason.
import { it } from 'node:test';
import assert from 'node:assert/strict';

export function limitChecks(functions, exceptions, limit) {
  it(`no function is over ${limit} lines but the listed exceptions`, () => {
    const long = functions().filter((f) => f.lines > limit && !exceptions.has(`${f.file}:${f.name}`));
    assert.deepEqual(long.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`), []);
  });

  it('every exception is still long (a split function leaves the list)', () => {
    const all = functions();
    for (const key of exceptions.keys()) {
      assert.ok(all.some((f) => `${f.file}:${f.name}` === key && f.lines > limit), `${key} is no longer over ${limit} lines`);
    }
  });
}
