// Waits until a browser this process started has finished starting: its processes together use
// under `share` of one core over `windowMs`. A Chromium that has just started is busy with its own
// work for a second or more on a 2-core machine, headless too (with its omnibox popups, which
// CHROMIUM_ARGS in tests/e2e/browser.mjs turns off, about 2 s of CPU in the first 3.5 s). A
// measurement that begins at once shares the cores with it, and whether the two overlap depends
// on how soon the first navigation comes: the same page's Total Blocking Time ranged 480–1,370 ms
// between runs that began at once. A reader's browser has long finished starting; the
// measurements wait for that too.
// Linux only (/proc); the CPU time of every process under `root` (default: this one) is summed.
import { readdir, readFile } from 'node:fs/promises';

const TICKS_PER_S = 100; // USER_HZ on Linux

/** pid → { ppid, ticks (user + system) } for every process readable in /proc. */
async function processes() {
  const table = new Map();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return table;
}

/** The processes below root (root itself excluded) → [{ pid, ticks (user + system) }]. */
export async function descendants(root) {
  const table = await processes();
  const below = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, { ppid }] of table) if (!below.has(pid) && below.has(ppid)) { below.add(pid); grew = true; }
  }
  below.delete(root);
  return [...below].map((pid) => ({ pid, ticks: table.get(pid).ticks }));
}

/** CPU seconds used so far by every process below root (root itself excluded). */
async function descendantsCpu(root) {
  return (await descendants(root)).reduce((sum, { ticks }) => sum + ticks, 0) / TICKS_PER_S;
}

/**
 * Resolves once the processes below `root` have used less than `share` of a core over the last
 * `windowMs`, → the milliseconds waited; rejects after `timeoutMs` with what they were using.
 */
export async function browserSettled({ root = process.pid, share = 0.05, windowMs = 1000, timeoutMs = 30000 } = {}) {
  const started = performance.now();
  let before = await descendantsCpu(root);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = await descendantsCpu(root);
    const used = (now - before) / (windowMs / 1000);
    if (used < share) return performance.now() - started;
    if (performance.now() - started > timeoutMs) {
      throw new Error(`the browser was still using ${(100 * used).toFixed(0)}% of a core after ${timeoutMs} ms`);
    }
    before = now;
  }
}
