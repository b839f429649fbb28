// bench/settle.mjs waits for the processes this one started to go quiet: it must wait while a
// child burns a core (and say so when it gives up), and return soon once none does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { browserSettled } from '../../bench/settle.mjs';

test('a busy child keeps it waiting until the timeout, which names the share of a core in use', async () => {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    await assert.rejects(browserSettled({ windowMs: 300, timeoutMs: 1000 }), /still using (\d+)% of a core after 1000 ms/);
  } finally {
    busy.kill();
  }
});

test('with every child quiet it returns after one window', async () => {
  const idle = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the child's own start-up
    const waited = await browserSettled({ windowMs: 300, timeoutMs: 3000 });
    assert.ok(waited >= 300 && waited < 3000, `${waited} ms`);
  } finally {
    idle.kill();
  }
});
