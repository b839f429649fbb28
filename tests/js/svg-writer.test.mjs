// web/figures/svg-writer.js: the figures' SVG files, read back with a small strict XML reader (no
// DOM in Node). Each file must be well-formed, standalone (namespace, viewBox, size), named
// (<title>, <desc>), carry every word a reader sees as <text> and never turn a word into markup.
// The reader itself must reject malformed files, or these tests could not fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CELL_LIMIT, chartSvg, escapeXml, heatmapSvg, tableSvg } from '../../web/figures/svg-writer.js';
import { labelStep } from '../../web/figures/token-axes.js';

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Character data with its references resolved; throws on a bare & or an unknown entity. */
function decode(raw, where) {
  assert.ok(!raw.includes('<'), `a raw < in ${where}`);
  return raw.replace(/&([^;\s]*);?/g, (whole, name) => {
    assert.ok(whole.endsWith(';'), `a bare & in ${where}: ${raw.slice(0, 60)}`);
    if (name in ENTITIES) return ENTITIES[name];
    const code = /^#(?:x([0-9a-f]+)|(\d+))$/i.exec(name);
    assert.ok(code, `unknown entity &${name}; in ${where}`);
    return String.fromCodePoint(code[1] ? parseInt(code[1], 16) : Number(code[2]));
  });
}

/**
 * A strict reader for the XML the writer produces: one optional declaration, one root element,
 * elements with double-quoted attributes (no duplicates), character data, no comments or DTDs.
 * → the root { name, attrs, children, text } (text: its own character data, decoded).
 */
export function readXml(source) {
  let at = 0;
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(source);
  if (declaration) at = declaration[0].length;
  const stack = [{ name: '#document', attrs: {}, children: [], text: '' }];
  const TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*"[^"]*")*)\s*(\/?)>/y;
  while (at < source.length) {
    const next = source.indexOf('<', at);
    const chunk = source.slice(at, next < 0 ? source.length : next);
    const parent = stack.at(-1);
    if (chunk.trim()) {
      assert.ok(stack.length > 1, `text outside the root: ${chunk.slice(0, 40)}`);
      parent.text += decode(chunk, `<${parent.name}>`);
    }
    if (next < 0) break;
    TAG.lastIndex = next;
    const tag = TAG.exec(source);
    assert.ok(tag, `malformed markup at ${next}: ${source.slice(next, next + 60)}`);
    const [whole, closing, name, attrText, selfClosing] = tag;
    at = next + whole.length;
    if (closing) {
      assert.ok(!attrText && !selfClosing, `</${name}> with attributes`);
      assert.equal(stack.pop().name, name, `</${name}> closes the wrong element`);
      continue;
    }
    const attrs = {};
    for (const [, key, value] of attrText.matchAll(/([A-Za-z_][\w:.-]*)\s*=\s*"([^"]*)"/g)) {
      assert.ok(!(key in attrs), `duplicate attribute ${key} on <${name}>`);
      attrs[key] = decode(value, `${name}@${key}`);
    }
    const node = { name, attrs, children: [], text: '' };
    assert.ok(stack.length > 1 || parent.children.length === 0, 'a second root element');
    parent.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  assert.equal(stack.length, 1, `unclosed <${stack.at(-1).name}>`);
  assert.equal(stack[0].children.length, 1, 'one root element');
  return stack[0].children[0];
}

function all(node, name, found = []) {
  if (node.name === name) found.push(node);
  for (const child of node.children) all(child, name, found);
  return found;
}
const texts = (root) => all(root, 'text').map((node) => node.text);

/** The root's standalone-file attributes and accessible name. */
function assertStandalone(root, title) {
  assert.equal(root.name, 'svg');
  assert.equal(root.attrs.xmlns, 'http://www.w3.org/2000/svg');
  const [w, h] = [Number(root.attrs.width), Number(root.attrs.height)];
  assert.ok(w > 0 && h > 0, `size ${w} × ${h}`);
  assert.equal(root.attrs.viewBox, `0 0 ${w} ${h}`);
  assert.equal(root.children[0].name, 'title');
  assert.equal(root.children[0].text, title);
  assert.equal(root.children[1].name, 'desc');
}

const HOSTILE = `<script>alert(1)</script>&"'`;
// A colour per value on [0, 1] that tells cells apart: red = round(255 v).
const grey = (v) => [Math.round(255 * v), 0, 0];

function tokenMap(words) {
  const n = words.length;
  const values = Float32Array.from({ length: n * n }, (_, k) => ((k * 7) % 11) / 10);
  return {
    tiles: [{ values, rows: n, cols: n }], min: 0, max: 1, label: `Attention for “${words.join(' ')}”`,
    legendTitle: 'attention weight', rowWords: words, colWords: words,
    rowLabel: (i) => `query ${words[i]}`, colLabel: (j) => `key ${words[j]}`,
  };
}

describe('the XML reader of these tests', () => {
  it('rejects what is not well-formed, so the checks below can fail', () => {
    for (const bad of ['<svg><text>a</svg>', '<svg><text>a & b</text></svg>', '<svg a="1" a="2"/>', '<svg/><svg/>',
      '<svg><text>&bogus;</text></svg>', '<svg><script>x</script>', '<svg>x<y</svg>']) {
      assert.throws(() => readXml(bad), undefined, bad);
    }
    assert.equal(readXml('<svg><text>a &amp; &#60;b&#x3e;</text></svg>').children[0].text, 'a & <b>');
  });
});

describe('escapeXml', () => {
  it('escapes the five markup characters and drops what XML cannot hold', () => {
    assert.equal(escapeXml(HOSTILE), '&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&apos;');
    assert.equal(escapeXml('a\u0000b\u001Fc\uFFFEd\uD800e'), 'abcde');
    assert.equal(escapeXml('😀 café\tx'), '😀 café\tx', 'pairs, accents and tabs stay');
  });
});

describe('heatmapSvg', () => {
  const words = [HOSTILE, 'the', 'cat', '\n', ' '];
  const spec = tokenMap(words);
  const svg = heatmapSvg({ title: 'Rotary attention', spec, legend: 'attention weight · viridis', colour: grey, raster: () => assert.fail('a small map is not rastered') });
  const root = readXml(svg);

  it('is a standalone, named file', () => {
    assertStandalone(root, 'Rotary attention');
    assert.equal(all(root, 'desc')[0].text, spec.label);
  });

  it('names every word on both axes as text, and a word never becomes markup', () => {
    const shown = texts(root);
    for (const word of [HOSTILE, 'the', 'cat', '↵', '␣']) {
      assert.equal(shown.filter((t) => t === word).length, 2, `“${word}” down the side and along the top`);
    }
    assert.deepEqual(all(root, 'script'), []);
    assert.ok(!svg.includes('<script'), 'no script tag anywhere in the file');
  });

  it('writes each cell in its colour, runs of one colour merged', () => {
    const n = words.length;
    const rects = all(root, 'g').flatMap((g) => g.children).filter((c) => c.name === 'rect');
    const covered = Array.from({ length: n }, () => new Array(n).fill(null));
    for (const { attrs } of rects) {
      for (let j = Number(attrs.x); j < Number(attrs.x) + Number(attrs.width); j++) {
        assert.equal(covered[attrs.y][j], null, 'no cell written twice');
        covered[attrs.y][j] = attrs.fill;
      }
    }
    const hex = (v) => `#${grey(v)[0].toString(16).padStart(2, '0')}0000`;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(covered[i][j], hex(spec.tiles[0].values[i * n + j]), `cell ${i}, ${j}`);
  });

  it('keys its colours: a gradient from min to max, both ends and the legend as text', () => {
    const stops = all(root, 'stop');
    assert.equal(stops[0].attrs['stop-color'], '#000000');
    assert.equal(stops.at(-1).attrs['stop-color'], '#ff0000');
    for (const t of ['0', '1', 'attention weight · viridis']) assert.ok(texts(root).includes(t), t);
    // The ends as the page's legend shows them: ln 4096 (a surprise strip's top) is 8.318, not 8.317766.
    const surprise = readXml(heatmapSvg({ title: 'Surprise', spec: { ...tokenMap(['a', 'b']), min: -0.000123456, max: Math.log(4096) },
      legend: 'nats', colour: grey, raster: () => '' }));
    for (const t of ['-1.235e-4', '8.318']) assert.ok(texts(surprise).includes(t), `${t} in ${texts(surprise).join(' | ')}`);
  });

  it(`embeds one PNG past ${CELL_LIMIT} cells, with the thinned words as text`, () => {
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`);
    const asked = [];
    const big = readXml(heatmapSvg({
      title: 'Big', spec: tokenMap(many), legend: 'l', colour: grey,
      raster: (index) => { asked.push(index); return 'data:image/png;base64,AAAA'; },
    }));
    assert.deepEqual(asked, [0]);
    const [image] = all(big, 'image');
    assert.equal(image.attrs.href, 'data:image/png;base64,AAAA');
    assert.equal(all(big, 'g').filter((g) => g.children.some((c) => c.name === 'rect')).length, 0, 'no cells');
    // 480 px over 200 rows: 3 px each, so every labelStep(3)-th word, on each axis.
    const step = labelStep(3);
    const shown = texts(big).filter((t) => /^w\d+$/.test(t));
    assert.equal(shown.length, 2 * Math.ceil(200 / step));
    assert.ok(shown.includes('w0') && shown.includes(`w${step}`) && !shown.includes('w1'));
  });

  it('names the first and last row and column of numbered axes, and each tile', () => {
    const values = new Float32Array(2 * 4 * 6);
    const numbered = readXml(heatmapSvg({
      title: 'Terms', legend: 'l', colour: grey, raster: () => '',
      spec: { tiles: [{ title: 'content · content', values, rows: 4, cols: 6 }, { title: 'position · position', values, rows: 4, cols: 6, offset: 24 }],
        min: -1, max: 1, label: 'Terms', rowLabel: (i) => `position ${i}`, colLabel: (j) => `dim ${j}` },
    }));
    const shown = texts(numbered);
    for (const t of ['position 0', 'position 3', 'dim 0', 'dim 5']) assert.equal(shown.filter((s) => s === t).length, 2, t);
    assert.ok(shown.includes('content · content') && shown.includes('position · position'));
  });
});

describe('chartSvg', () => {
  const spec = {
    label: `Score versus distance for ${HOSTILE}`, xLabel: 'distance k', yLabel: 'score',
    series: [
      { name: 'rotary', colour: '#0072B2', kind: 'line', x: [0, 1, 2, 3, 4], y: [1, 0.5, NaN, 0.2, 0.1] },
      { name: 'ALiBi', colour: '#D55E00', kind: 'line', dash: true, x: [0, 1, 2, 3, 4], y: [0, -1, -2, -3, -4] },
      { name: 'bars', colour: '#009E73', kind: 'bars', x: [0, 1, 2], y: [0.3, 0.2, 0.1] },
      { name: HOSTILE, colour: '#CC79A7', kind: 'points', x: [1, 3], y: [0.4, 0.6] },
    ],
  };
  const root = readXml(chartSvg({ title: 'Score versus distance', spec, width: 800, height: 280 }));
  const paths = all(root, 'g').find((g) => g.attrs['clip-path']).children;

  it('is a standalone, named file with its axis titles, ticks and key as text', () => {
    assertStandalone(root, 'Score versus distance');
    const shown = texts(root);
    for (const t of ['distance k', 'score', 'rotary', 'ALiBi', 'bars', HOSTILE, '0', '4']) assert.ok(shown.includes(t), t);
  });

  it('writes a chart not drawn yet as its heading alone', () => {
    const empty = readXml(chartSvg({ title: 'Loss during training', spec: null, width: 800, height: 240 }));
    assertStandalone(empty, 'Loss during training');
    assert.deepEqual(texts(empty), ['Loss during training']);
  });

  it('draws each series as one path: lines broken at missing values, dashes kept, bars and dots filled', () => {
    assert.deepEqual(paths.map((p) => p.name), ['path', 'path', 'path', 'path']);
    const [line, dashed, bars, points] = paths.map((p) => p.attrs);
    assert.equal(line.d.match(/M/g).length, 2, 'a NaN lifts the pen');
    assert.equal(line.d.match(/L/g).length, 2);
    assert.equal(dashed['stroke-dasharray'], '6 4');
    assert.equal(line['stroke-dasharray'], undefined);
    assert.equal(bars.d.match(/z/g).length, 3);
    assert.equal(points.d.match(/M/g).length, 2);
    assert.equal(bars.fill, '#009E73');
  });
});

describe('tableSvg', () => {
  it('writes every cell, the heading and the note as text', () => {
    const rows = [['Rotary', '100.0%', '98.2%'], [HOSTILE, '5.0%', '0.0%']];
    const root = readXml(tableSvg({ title: 'Retrieval', label: 'Identity and position retrieval', columns: ['scheme', 'identity', 'position'], rows, note: 'd = 64' }));
    assertStandalone(root, 'Retrieval');
    const shown = texts(root);
    for (const cell of ['scheme', 'identity', 'position', ...rows.flat(), 'Retrieval', 'Identity and position retrieval', 'd = 64']) {
      assert.ok(shown.includes(cell), cell);
    }
  });
});
