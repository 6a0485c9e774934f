// The charts of the AWS walkthrough, as a person sees them: scroll to each chart, check it is
// drawn crisply in the shares' colours, then scrub the timeline and read the "state at t"
// panel. Screenshots of every chart go to target/e2e/ for review.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SHOTS, openBrowser, serveDist, waitForApp } from './helpers.mjs';

// src/ui/palette.rs: background, medium, protected.
const COLOURS = { background: '#4e79a7', medium: '#f28e2b', protected: '#59a14f' };
const CHARTS = [
  'chart-allocation',
  'chart-occupancy',
  'chart-completion',
  'chart-interruption',
  'chart-timeline',
];
// Which shares' colours each chart must show (protected never holds an instance).
const USED = {
  'chart-allocation': ['background', 'medium'],
  'chart-occupancy': ['background', 'medium'],
  'chart-completion': ['background', 'medium'],
  'chart-interruption': ['background'],
  'chart-timeline': ['background', 'medium'],
};

let server;
before(async () => {
  server = await serveDist();
});
after(async () => {
  await server?.close();
});

/** Backing size, distinct colours and pixels near each target colour of one canvas. */
function stats(canvas, targets) {
  const ctx = canvas.getContext('2d');
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const seen = new Set();
  const rgb = targets.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
  const counts = targets.map(() => 0);
  let inked = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    seen.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
    if (r < 235 || g < 235 || b < 235) inked += 1;
    rgb.forEach(([tr, tg, tb], k) => {
      if (Math.abs(r - tr) + Math.abs(g - tg) + Math.abs(b - tb) <= 24) counts[k] += 1;
    });
  }
  return {
    width: canvas.width,
    height: canvas.height,
    cssWidth: canvas.getBoundingClientRect().width,
    cssHeight: canvas.getBoundingClientRect().height,
    dpr: window.devicePixelRatio,
    colours: seen.size,
    inked,
    counts,
  };
}

async function shot(locator, name) {
  await mkdir(SHOTS, { recursive: true });
  await locator.screenshot({ path: join(SHOTS, `${name}.png`) });
}

test('every chart of the walkthrough is drawn, crisp, in the share colours', async (t) => {
  const browser = await openBrowser('charts', { deviceScaleFactor: 2 });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  assert.equal(await page.locator('#panic-banner').count(), 0, 'no panic banner');

  // The results in reading order: summary table first, then the charts.
  const order = await page.$$eval('[data-testid]', (els) =>
    els.map((e) => e.dataset.testid).filter((id) => id === 'summary-table' || id.startsWith('chart-')),
  );
  assert.deepEqual(order, ['summary-table', ...CHARTS]);

  for (const id of CHARTS) {
    const figure = page.locator(`[data-testid="${id}"]`);
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction((sel) => {
      const cs = [...document.querySelectorAll(sel)];
      return cs.length > 0 && cs.every((c) => c.width === Math.round(c.getBoundingClientRect().width * window.devicePixelRatio));
    }, `[data-testid="${id}"] canvas`);
    const canvases = figure.locator('canvas');
    const n = await canvases.count();
    assert.ok(n >= 1, `${id} has a canvas`);
    const targets = USED[id].map((s) => COLOURS[s]);
    const totals = targets.map(() => 0);
    for (let i = 0; i < n; i++) {
      const s = await canvases.nth(i).evaluate(stats, targets);
      assert.equal(s.dpr, 2);
      assert.equal(s.width, Math.round(s.cssWidth * s.dpr), `${id} canvas ${i}: backing width`);
      assert.equal(s.height, Math.round(s.cssHeight * s.dpr), `${id} canvas ${i}: backing height`);
      assert.ok(s.colours >= 6, `${id} canvas ${i}: ${s.colours} distinct colours`);
      assert.ok(s.inked > 2000, `${id} canvas ${i}: ${s.inked} drawn pixels`);
      s.counts.forEach((c, k) => (totals[k] += c));
    }
    totals.forEach((c, k) =>
      assert.ok(c >= 100, `${id}: ${USED[id][k]}'s colour has ${c} pixels`),
    );
    assert.equal(await figure.locator('.chart-error').count(), 0, `${id} drew without error`);
    await shot(figure.locator('xpath=ancestor::section[1]'), id);
  }

  // A narrower window: every canvas is redrawn at its new size, still crisp (a chart out of
  // view catches up when it comes into view).
  const before = await page.$eval('[data-testid="chart-occupancy"] canvas', (c) => c.width);
  await page.setViewportSize({ width: 760, height: 900 });
  for (const id of CHARTS) {
    await page.locator(`[data-testid="${id}"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      ({ sel, w }) => {
        const cs = [...document.querySelectorAll(sel)];
        const occ = document.querySelector('[data-testid="chart-occupancy"] canvas');
        return occ.width !== w && cs.every((c) => !c.hasAttribute('data-pending') && c.width === Math.round(c.getBoundingClientRect().width * window.devicePixelRatio));
      },
      { sel: `[data-testid="${id}"] canvas`, w: before },
    );
  }
  const occ = await page.locator('[data-testid="chart-occupancy"] canvas').evaluate(stats, [COLOURS.background]);
  assert.ok(occ.counts[0] >= 100, `redrawn after the resize (${occ.counts[0]} pixels of background)`);
  await shot(page.locator('[data-testid="chart-occupancy"]').locator('xpath=ancestor::section[1]'), 'chart-occupancy-narrow');
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

test('clicking the timeline moves the cursor and updates the state at t', async (t) => {
  const browser = await openBrowser('timeline', { deviceScaleFactor: 1 });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);

  const section = page.locator('[data-testid="chart-timeline"]').locator('xpath=ancestor::section[1]');
  const canvas = page.locator('[data-testid="chart-timeline"] canvas');
  const panel = page.locator('[data-testid="state-at"]');
  await canvas.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid="chart-timeline"] canvas');
    return c && c.width === Math.round(c.getBoundingClientRect().width * window.devicePixelRatio);
  });
  assert.match(await panel.textContent(), /Click the timeline/);
  assert.equal(await page.locator('.cursor-line').count(), 0);

  // Click a little after the start: background's two first jobs and medium's are in play.
  const box = await canvas.boundingBox();
  await canvas.click({ position: { x: box.width * 0.3, y: box.height / 2 } });
  await page.waitForSelector('[data-testid="state-at"] .state-title');
  const first = (await panel.locator('.state-title').textContent()).trim();
  assert.match(first, /^State at \d/);
  assert.ok(
    (await page.locator('[data-testid="chart-timeline"] .cursor-line').count()) === 1,
    'the cursor is drawn on the timeline',
  );
  assert.ok((await page.locator('.cursor-line').count()) >= 3, 'and on the other charts over time');
  assert.ok((await panel.locator('ul.holding li[data-job]').count()) >= 1, 'someone holds instances');

  // Another click elsewhere changes the time shown.
  await canvas.click({ position: { x: box.width * 0.85, y: box.height / 2 } });
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid="state-at"] .state-title')?.textContent.trim() !== before,
    first,
  );

  // Keyboard: from the start, the arrow keys step through the walkthrough's events.
  await canvas.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight'); // t = 60 s: medium reclaims its capacity from bg-p2
  assert.equal((await panel.locator('.state-title').textContent()).trim(), 'State at 1 min');
  const waiting = await panel.locator('ul.waiting li[data-job]').evaluateAll((lis) =>
    lis.map((li) => `${li.dataset.job}:${li.dataset.reason}`),
  );
  assert.deepEqual(waiting, ['bg-p2:no_lendable_capacity', 'bg-p1:no_lendable_capacity']);
  assert.match(await panel.locator('ul.events').textContent(), /reclaimed by med-1/);
  await shot(section, 'timeline-at-60s');

  await page.keyboard.press('ArrowRight'); // t = 120 s: bg-p1 gets priority 4 and preempts bg-p3
  assert.equal((await panel.locator('.state-title').textContent()).trim(), 'State at 2 min');
  const holding = await panel
    .locator('ul.holding li[data-job]')
    .evaluateAll((lis) => lis.map((li) => li.dataset.job));
  assert.deepEqual(holding, ['bg-p1', 'med-1']);
  assert.match(await panel.locator('ul.events').textContent(), /in-share preemption/);
  await shot(section, 'timeline-at-120s');

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

// Issue #30: a large run's timeline (over 20,000 events) makes its Gantt and layout in tasks
// of their own when it comes into view, then draws them: the 5,000-job preset (41,278 events).
test('a large run\'s timeline is laid out in steps, then drawn when scrolled to', async (t) => {
  const browser = await openBrowser('timeline-large', { deviceScaleFactor: 1 });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  await page.locator('[data-testid="preset-select"]').selectOption('research');
  await page.waitForFunction(() => /5,000 jobs/.test(document.querySelector('[data-testid="run-stats"]')?.textContent ?? ''), null, { timeout: 60_000 });
  const figure = page.locator('[data-testid="chart-timeline"]');
  await figure.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => /5,000 jobs: their instance-holding stretches are packed into \d+ lanes/.test(document.querySelector('[data-testid="chart-timeline"] .chart-note')?.textContent ?? ''),
    null,
    { timeout: 30_000 },
  );
  const s = await figure.locator('canvas').first().evaluate(stats, [COLOURS.background]);
  assert.ok(s.colours >= 6 && s.inked > 1000, `the timeline is drawn: ${s.colours} colours, ${s.inked} inked pixels`);
  await shot(figure, 'timeline-large');
  assert.deepEqual(problems, []);
});
