// How many times one keystroke crosses from JS into wasm, counted by wrapping
// the embind core (tests/js/counting-core.mjs). The keystroke is the one the page (web/page/app.js)
// and the element (web/element/element.js) both run through web/pipeline/pipeline.js: the sentence grows by one
// character with GloVe loaded, W = I, the page's default lanes and the element's state shape.
//
// Before the one-call analysis (commit "Count the wasm calls of one keystroke"), each took 24
// calls: tokenize, rows, reduce, configure, run, two pe, and per lane width, magnitudes, three
// views, and the rotary lane's parameters and scaleFactor; the word vectors went wasm → JS → wasm
// and the PCA word part too.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, setCoreLoader } from '../../dist/posenc.mjs';
import { createPipeline, settleSettings } from '../../dist/pipeline/pipeline.js';
import { DEFAULTS } from '../../dist/pipeline/state.js';
import { syntheticSource, vectorSetSource } from '../../dist/pipeline/vocab.js';
import { countingCoreLoader } from './counting-core.mjs';

const SENTENCE = 'The king sat on the throne, and the queen smiled at the king';

describe('wasm calls per keystroke', () => {
  let lab;
  let glove;
  let counting;
  before(async () => {
    counting = countingCoreLoader();
    setCoreLoader(counting.loader);
    lab = await load();
    glove = vectorSetSource(lab, await lab.loadVectors('glove'));
  });

  // Types the sentence's last word one character at a time, warm (every earlier prefix seen),
  // then a new unknown word's first letter; → the calls of each of the last two keystrokes.
  function keystrokes(state, source) {
    const pipeline = createPipeline(lab);
    const run = (sentence) => pipeline.run({ ...state, sentence }, source, settleSettings(lab, state, source));
    for (let cut = SENTENCE.length - 6; cut < SENTENCE.length; cut++) run(SENTENCE.slice(0, cut));
    const counted = [];
    for (const text of [SENTENCE, `${SENTENCE} q`]) {
      counting.reset();
      const view = run(text);
      assert.ok(view.n > 10);
      counted.push({ total: counting.calls.total, byName: Object.fromEntries(counting.calls.byName) });
    }
    pipeline.dispose();
    return counted;
  }

  it('the page: one call, GloVe or synthetic', () => {
    for (const source of [glove, syntheticSource(lab, 64)]) {
      const calls = keystrokes(DEFAULTS, source);
      console.log(`page keystroke (${source.kind}):`, JSON.stringify(calls));
      for (const c of calls) assert.deepEqual(c.byName, { 'Analysis.update': 1 });
    }
  });

  it('the element: one call', () => {
    const state = { ...DEFAULTS, schemes: ['additive', 'rotary'], alibiHeads: 4, alibiHead: 2 };
    const calls = keystrokes(state, glove);
    console.log('element keystroke:', JSON.stringify(calls));
    for (const c of calls) assert.deepEqual(c.byName, { 'Analysis.update': 1 });
  });
});
