// A Markdown table of two bench/keystroke.mjs records (--out, with --cpu) side by side, for
// docs/BENCHMARKS.md: each row's key → pixels median (p90) in both, and its thread time per key
// on the page's main thread and in its workers; then continuous typing's long tasks and late
// frames, and when and under what load each record was made.
//   node bench/keystroke-table.mjs BEFORE.json AFTER.json
import { readFileSync } from 'node:fs';

const [before, after] = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')));
if (!after) throw new TypeError('usage: node bench/keystroke-table.mjs BEFORE.json AFTER.json');
const ms = (x) => (x == null ? '–' : x.toFixed(1));
const rowName = (r) => `${r.heads === 'trained' ? 'trained heads' : 'encoding alone'}, ${r.n} tokens${r.cpuThrottle > 1 ? `, ${r.cpuThrottle}× CPU throttle` : ''}`;

console.log('| keystroke → pixels | before: median (p90) | after: median (p90) | main-thread CPU per key | worker CPU per key |');
console.log('|---|---:|---:|---:|---:|');
for (const r of before.results.filter((x) => x.keyToPixelsMedian != null)) {
  const s = after.results.find((x) => x.n === r.n && x.heads === r.heads && x.cpuThrottle === r.cpuThrottle);
  if (!s) continue;
  console.log(`| ${rowName(r)} | ${ms(r.keyToPixelsMedian)} ms (${ms(r.keyToPixelsP90)}) | ${ms(s.keyToPixelsMedian)} ms (${ms(s.keyToPixelsP90)}) | ` +
    `${ms(r.mainCpuMedian)} → ${ms(s.mainCpuMedian)} ms | ${ms(r.workerCpuMedian)} → ${ms(s.workerCpuMedian)} ms |`);
}
const typing = (record) => record.results.find((x) => x.keysTyped != null);
const [tb, ta] = [typing(before), typing(after)];
const line = (t) => `${t.longTasks} long tasks while typing (longest ${ms(t.longTaskMax)} ms), ${t.framesOver16_7} of ${t.frames} frames late, ` +
  `${t.pauseLongTasks} long tasks once typing paused`;
if (tb && ta) console.log(`\nContinuous typing at ${tb.n} tokens — before: ${line(tb)}. After: ${line(ta)}.`);
const sitting = (record) => `${record.sitting.build}: ${record.sitting.at.slice(11, 16)}–${record.sitting.end.slice(11, 16)} UTC, load average ${record.sitting.load} → ${record.sitting.loadEnd}`;
console.log(`\nBefore: ${sitting(before)}. After: ${sitting(after)}. ${before.runtime}.`);
