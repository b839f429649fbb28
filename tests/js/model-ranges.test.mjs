// A shipped model's first bytes before its output layer (lab.loadPretrained's onHeads, web/model-file.mjs
// readModelFile) over HTTP, against the demo server (scripts/serve.mjs) behind a recording proxy:
// with ranges, the first request asks for the manifest's heads bytes and the second for the rest;
// a server that ignores Range (200), or a Range that fails outright, still gives the heads from
// the streamed whole file; the heads-only model's attention is the complete model's bit for bit;
// the file the complete model saves (what "Download weights" holds) rebuilds it exactly; a first
// part that does not match the manifest is refused by name.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { serve } from '../../scripts/serve.mjs';
import { DIST } from '../e2e/browser.mjs';
import { closing, rangeProxy as proxy } from '../e2e/fixtures/range-proxy.mjs';

const SENTENCE = 'The king sat on the throne, and the queen smiled at the king.';

describe('shipped models over HTTP: the heads first', () => {
  let origin;
  let reference; // the model a whole-file load gives (no onHeads), and its outputs on SENTENCE
  const proxies = [];
  before(async () => {
    origin = await serve(DIST, 0);
    const lab = await load({ assetsUrl: (await open('ranges')).url });
    const model = await lab.loadPretrained('rotary');
    const ids = model.tokenize(SENTENCE);
    reference = { ids, shown: model.inspect(ids, ids.length, { layer: 1, head: 2 }), file: model.save({ dtype: 'f16' }) };
    model.dispose();
  });
  after(async () => {
    for (const { server } of proxies) await closing(server);
    await closing(origin);
  });

  async function open(mode) {
    const link = await proxy(origin.address().port, mode);
    proxies.push(link);
    return link;
  }

  // loadPretrained with onHeads through a proxy in `mode`: the heads-only model's outputs, the
  // complete model's, the requests for the model file, and the order things happened in.
  async function loadThrough(mode, name = 'rotary') {
    const link = await open(mode);
    const lab = await load({ assetsUrl: link.url });
    const events = [];
    let heads = null;
    const model = await lab.loadPretrained(name, {
      onHeads: (early) => {
        events.push('heads');
        heads = early.inspect(reference.ids, reference.ids.length, { layer: 1, head: 2 });
        early.dispose();
      },
      onProgress: ({ loaded, total }) => events.push(loaded === total ? 'all bytes' : 'bytes'),
    });
    events.push('complete');
    const entry = lab.pretrained.find((m) => m.name === name);
    const shown = model.inspect(reference.ids, reference.ids.length, { layer: 1, head: 2 });
    const file = model.save({ dtype: 'f16' });
    model.dispose();
    return { lab, entry, heads, shown, file, events, requests: link.seen.filter((r) => r.path.endsWith('.q8.safetensors')) };
  }

  function assertSameModel({ heads, shown, file, events }, what) {
    assert.ok(heads, `${what}: onHeads was called`);
    assert.ok(events.indexOf('heads') < events.indexOf('all bytes'), `${what}: the heads before the last byte (${events.join(' ')})`);
    assert.deepEqual(heads.attention, reference.shown.attention, `${what}: the heads-only attention is the model's`);
    assert.notDeepEqual(heads.surprise, reference.shown.surprise, `${what}: the heads-only model has no output layer`);
    assert.deepEqual(shown.attention, reference.shown.attention, what);
    assert.deepEqual(shown.surprise, reference.shown.surprise, what);
    assert.deepEqual(file, reference.file, `${what}: the saved file is the whole-file load's`);
  }

  it('with ranges: the heads bytes, then the rest, as two Range requests; the heads come before the last byte', async () => {
    const result = await loadThrough('ranges');
    const { bytes } = result.entry.heads;
    assert.ok(bytes > 0 && bytes < result.entry.bytes / 2, `heads ${bytes} of ${result.entry.bytes} bytes`);
    assert.deepEqual(result.requests.map((r) => r.range), [`bytes=0-${bytes - 1}`, `bytes=${bytes}-`]);
    assertSameModel(result, 'ranges');
  });

  it('a server that ignores Range: one whole-file answer, streamed, still gives the heads first', async () => {
    const result = await loadThrough('ignore');
    assert.equal(result.requests.length, 1);
    assert.equal(result.requests[0].range, `bytes=0-${result.entry.heads.bytes - 1}`, 'the client asked for the range');
    assertSameModel(result, 'ignored');
  });

  it('a Range request that fails outright is asked again without Range', async () => {
    const result = await loadThrough('fail');
    assert.deepEqual(result.requests.map((r) => r.range), [`bytes=0-${result.entry.heads.bytes - 1}`, null]);
    assertSameModel(result, 'refused');
  });

  it("first bytes that do not match the manifest's heads.sha256 are refused by name; without onHeads they are not checked apart", async () => {
    const link = await open('bad-heads');
    const lab = await load({ assetsUrl: link.url });
    const { bytes } = lab.pretrained.find((m) => m.name === 'additive').heads;
    let called = false;
    await assert.rejects(lab.loadPretrained('additive', { onHeads: () => { called = true; } }),
      new RegExp(`additive\\.q8\\.safetensors's first ${bytes} bytes has sha256 [0-9a-f]{64}, but the manifest says 0{64}`));
    assert.equal(called, false);
    const whole = await lab.loadPretrained('additive');
    whole.dispose();
  });

  it('refuses an onHeads that is not a function, by name', async () => {
    const lab = await load({ assetsUrl: (await open('ranges')).url });
    await assert.rejects(lab.loadPretrained('rotary', { onHeads: 1 }), (e) => e instanceof TypeError && /onHeads/.test(e.message));
  });
});
