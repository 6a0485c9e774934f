// The first page: the AWS walkthrough preset, run through the engine on load.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { canvasStats, openBrowser, serveDist, waitForApp } from './helpers.mjs';

const SHARES = ['background', 'medium', 'protected'];
// src/palette.rs: the first three share colours.
const SHARE_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f'];

let server;
before(async () => {
  server = await serveDist();
});
after(async () => {
  await server?.close();
});

test('the page shows the AWS walkthrough: header, summary per share, occupancy chart', async (t) => {
  const browser = await openBrowser('page', { deviceScaleFactor: 2 });
  t.after(() => browser.close());
  const { page, problems } = browser;

  await page.goto(server.url);
  await waitForApp(page);

  assert.equal(await page.locator('#panic-banner').count(), 0, 'no panic banner');
  assert.equal(await page.locator('.error-box').count(), 0, 'no error box');
  assert.equal(await page.locator('#loading').count(), 0, 'the loading text is gone');

  assert.equal((await page.locator('header h1').textContent()).trim(), 'Quota Lab');
  assert.match(await page.locator('header .tagline').textContent(), /allocated.*consumes/);

  const rows = await page.$$eval('table.summary tbody tr', (trs) =>
    trs.map((tr) => ({
      share: tr.dataset.share,
      name: tr.querySelector('th').textContent.trim(),
      jobs: tr.querySelector('[data-col="jobs"]').textContent.trim(),
    })),
  );
  assert.deepEqual(
    rows.map((r) => r.share),
    SHARES,
    'one row per share in scenario order',
  );
  assert.deepEqual(
    rows.map((r) => r.name),
    SHARES,
  );
  for (const r of rows) assert.match(r.jobs, /^\d+ \/ \d+$/, `jobs cell of ${r.share}`);

  const legend = await page.$$eval('ul.legend li', (lis) => lis.map((li) => li.textContent.trim()));
  assert.deepEqual(legend, SHARES);

  // The chart is drawn (several colours, each share's line visible) and crisp: its backing
  // store is its CSS size times devicePixelRatio.
  await page.waitForFunction(() => {
    const c = document.querySelector('canvas.chart-canvas');
    return c && c.width === Math.round(c.clientWidth * window.devicePixelRatio);
  });
  const stats = await canvasStats(page, 'canvas.chart-canvas', SHARE_COLOURS);
  assert.equal(stats.dpr, 2);
  assert.equal(stats.width, Math.round(stats.clientWidth * stats.dpr));
  assert.equal(stats.height, Math.round(stats.clientHeight * stats.dpr));
  assert.ok(stats.colours >= 8, `the canvas has ${stats.colours} distinct colours`);
  for (const [colour, n] of Object.entries(stats.counts)) {
    assert.ok(n >= 50, `the line of colour ${colour} has ${n} pixels`);
  }

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});
