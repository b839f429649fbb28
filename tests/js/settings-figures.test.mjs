// web/page/settings-figures.js draws the settings' panels in a task after the view's: nothing is
// drawn inside show(), each panel once per task with the newest figures a view brought, and a
// view that brings none of them leaves the waiting ones alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSettingsFigures } from '../../web/page/settings-figures.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const drawn = [];
  const panel = (name) => ({ render: (figure) => drawn.push([name, figure]) });
  const ui = { spreadLength: { value: '' }, spreadLengthValue: { textContent: '' } };
  const figures = createSettingsFigures({ ui, spreadPanel: panel('spread'), distancePanel: panel('distance'), anglesPanel: panel('angles') });
  return { drawn, ui, figures };
}

test('the panels are drawn in a later task, not inside the view\'s', async () => {
  const { drawn, ui, figures } = setup();
  figures.show({ spread: 's1', distance: 'd1', angles: 'a1', spreadLength: 12 }, { spreadLength: 0 }, 12);
  assert.deepEqual(drawn, []);
  assert.equal(ui.spreadLengthValue.textContent, 'L = 12 (the sentence)', 'the length readout is written at once');
  await nextTask();
  assert.deepEqual(drawn, [['spread', 's1'], ['distance', 'd1'], ['angles', 'a1']]);
});

test('two views before that task: each panel drawn once, with the newest figure it was given', async () => {
  const { drawn, figures } = setup();
  figures.show({ spread: 's1', distance: 'd1', angles: null, spreadLength: 0 }, { spreadLength: 0 }, 0);
  figures.show({ spread: null, distance: 'd2', angles: 'a2', spreadLength: 0 }, { spreadLength: 0 }, 0);
  figures.show({ spread: null, distance: null, angles: null, spreadLength: 0 }, { spreadLength: 0 }, 0);
  await nextTask();
  assert.deepEqual(drawn, [['spread', 's1'], ['distance', 'd2'], ['angles', 'a2']]);
  await nextTask();
  assert.equal(drawn.length, 3, 'nothing drawn twice');
});

test('a view without new figures schedules nothing', async () => {
  const { drawn, figures } = setup();
  figures.show({ spread: null, distance: null, angles: null, spreadLength: 5 }, { spreadLength: 5 }, 5);
  await nextTask();
  assert.deepEqual(drawn, []);
});
