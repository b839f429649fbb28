// Markdown anchors as GitHub makes them, for the tests that check links and cited sections
// (tests/js/docs.test.mjs, tests/js/references.test.mjs).

/** GitHub's anchor for a Markdown heading: lowercase, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading.trim().toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file offers: its headings' slugs (repeats get -1, -2, … as on GitHub). */
export function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}
