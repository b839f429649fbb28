// A node --test reporter, beside TAP in scripts/test: when a test file fails as a whole (its time
// ran out, or its process died), the tests it had begun and not ended, one line per file:
//   <file>: unfinished: <describe> › <test>
// node's TAP names only the file then, since the file's process is stopped before its running
// test can report; the runner's own events say which tests it had begun (test:dequeue) and ended
// (test:pass, test:fail). Writes nothing when no file fails as a whole.
export default async function* unfinished(source) {
  const begun = new Map(); // file → [{ name, nesting }] begun and not yet ended, in order
  for await (const { type, data } of source) {
    const file = data?.file;
    if (!file) continue;
    if (type === 'test:dequeue' && data.name !== file) {
      if (!begun.has(file)) begun.set(file, []);
      begun.get(file).push({ name: data.name, nesting: data.nesting });
    } else if ((type === 'test:pass' || type === 'test:fail') && data.name !== file) {
      const list = begun.get(file) ?? [];
      const i = list.findLastIndex((t) => t.name === data.name && t.nesting === data.nesting);
      if (i >= 0) list.splice(i, 1);
    } else if (type === 'test:fail' && data.name === file) {
      const names = (begun.get(file) ?? []).map((t) => t.name);
      yield `${file}: unfinished: ${names.length ? names.join(' › ') : '(none begun)'}\n`;
      begun.delete(file);
    }
  }
}
