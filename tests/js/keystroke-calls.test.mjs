// How many times one keystroke crosses from JS into wasm (issue #14, item 3), counted by wrapping
// the embind core (tests/js/counting-core.mjs). The keystroke is the page's and the element's:
// the sentence grows by one character with GloVe loaded, the default lanes, W = I.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, setCoreLoader } from '../../dist/posenc.mjs';
import { vectorSetSource } from '../../dist/vocab.js';
import { countingCoreLoader } from './counting-core.mjs';

const SENTENCE = 'The king sat on the throne, and the queen smiled at the king';
const SCHEMES = ['additive', 'concatenated', 'rotary'];

// The page's keystroke path as web/app.js runs it (recompute → runCompare).
function pageKeystroke(lab, source, comparer, text, last) {
  const tokens = source.tokenize(text);
  const { vectors } = source.embed(tokens);
  const settings = lab.settleSchemeOptions({}, { causal: false });
  return comparer.compare(vectors, tokens.length, source.dim, {
    schemes: SCHEMES, ...settings.options, alpha: source.defaultAlpha, base: 10000, layout: 'interleaved',
    pairing: 'interleaved', dPos: 24, concat: 'same-width', causal: false, heads: 0,
    concatWords: source.concatWords(vectors, tokens.length), ...(last ? { reuse: last } : {}),
  });
}

// The element's keystroke path as web/element.js runs it (#recompute → compare).
function elementKeystroke(lab, source, text) {
  const tokens = source.tokenize(text);
  const { vectors } = source.embed(tokens);
  const { options } = lab.settleSchemeOptions({ trainedLength: 2048, evalLength: 8192, alibiHeads: 8, alibiHead: 1 }, { causal: false });
  return lab.compare(vectors, tokens.length, source.dim, {
    alpha: source.defaultAlpha, base: 10000, layout: 'interleaved', pairing: 'interleaved', dPos: 24, concat: 'same-width',
    causal: false, heads: 0, schemes: SCHEMES, ...options, concatWords: source.concatWords(vectors, tokens.length),
  });
}

describe('wasm calls per keystroke', () => {
  let lab;
  let source;
  let counting;
  before(async () => {
    counting = countingCoreLoader();
    setCoreLoader(counting.loader);
    lab = await load();
    source = vectorSetSource(lab, await lab.loadVectors('glove'));
  });

  // Types the sentence's last word one character at a time, warm (every earlier prefix seen),
  // and returns the calls of the last keystroke.
  function lastKeystroke(run) {
    for (let cut = SENTENCE.length - 6; cut < SENTENCE.length; cut++) run(SENTENCE.slice(0, cut));
    counting.reset();
    run(SENTENCE);
    return { total: counting.calls.total, byName: Object.fromEntries(counting.calls.byName) };
  }

  it('the page', () => {
    const comparer = lab.comparer();
    let last = null;
    const calls = lastKeystroke((text) => { last = pageKeystroke(lab, source, comparer, text, last); });
    console.log('page keystroke:', JSON.stringify(calls));
    // Measured before issue #14's one-trip core: 24 (tokenize, rows, reduce, configure, run, two pe,
    // and per lane width, magnitudes, three views; the rotary lane's parameters and scaleFactor).
    assert.ok(calls.total <= 24, `${calls.total} calls`);
  });

  it('the element', () => {
    const calls = lastKeystroke((text) => elementKeystroke(lab, source, text));
    console.log('element keystroke:', JSON.stringify(calls));
    assert.ok(calls.total <= 24, `${calls.total} calls`);
  });
});
