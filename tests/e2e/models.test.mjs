// docs/ARCHITECTURE.md's model ("The trained model") through its JS contract in Chromium from both cores: create, train, attention, save, load
// (the Node side is tests/js/model.test.mjs). The scalar core is forced with load({ simd: false }).
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeServer, launchChromium, serveDir } from './browser.mjs';

let browser, server, baseUrl;
before(async () => {
  ({ server, baseUrl } = await serveDir());
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await closeServer(server);
});

for (const simd of [true, false]) {
  test(`${simd ? 'SIMD' : 'scalar'} core: a model trains, saves and loads back in the browser`, async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(new URL('index.html', baseUrl).href);
      const result = await page.evaluate(async (simd) => {
        const { load } = await import('./posenc.mjs');
        const lab = await load({ simd });
        const m = lab.createModel({ scheme: 'rotary', vocab: 12, d: 16, layers: 2, heads: 2, context: 8, seed: 2 });
        const tokens = Int32Array.from({ length: 4 * 9 }, (_, i) => 2 + ((i * 7) % 10));
        const first = m.trainStep(tokens, 4, 8);
        for (let i = 0; i < 20; i++) m.trainStep(tokens, 4, 8);
        const loss = m.loss(tokens, 4, 8);
        const attention = m.attention(tokens.subarray(0, 8), 8);
        const copy = lab.loadModel(m.save());
        const reloaded = copy.loss(tokens, 4, 8);
        let refusal = '';
        try { lab.loadModel(new Uint8Array(16)); } catch (e) { refusal = `${e.name}: ${e.message}`; }
        m.dispose();
        copy.dispose();
        return { simd: lab.simd, first, loss, reloaded, attentionLength: attention.length, refusal };
      }, simd);
      assert.equal(result.simd, simd);
      assert.ok(Math.abs(result.first - Math.log(12)) < 0.05, `first loss ${result.first}`);
      assert.ok(result.loss < result.first - 0.1, `loss ${result.first} → ${result.loss} after 21 steps`);
      assert.equal(result.reloaded, result.loss);
      assert.equal(result.attentionLength, 2 * 2 * 8 * 8);
      assert.match(result.refusal, /^RangeError: weights file: /);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}
