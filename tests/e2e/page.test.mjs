// The first page: the AWS walkthrough preset, run through the engine on load.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { canvasStats, openBrowser, serveDist, waitForApp } from './helpers.mjs';

const SHARES = ['background', 'medium', 'protected'];
// src/ui/palette.rs: the colours of background and medium (protected never uses an instance in
// the walkthrough, so it has no area on the occupancy chart).
const USED_COLOURS = ['#4e79a7', '#f28e2b'];
const OCCUPANCY = '[data-testid="chart-occupancy"] canvas';

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

  assert.equal(await page.locator('[data-testid="summary-table"]').count(), 1);
  const rows = await page.$$eval('[data-testid="summary-row"]', (trs) =>
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

  const legend = await page.$$eval('[data-testid="chart-occupancy"] ul.share-legend li', (lis) =>
    lis.map((li) => li.textContent.trim()),
  );
  assert.deepEqual(legend, SHARES);

  // The chart is drawn (several colours, each share's area visible) and crisp: its backing
  // store is its CSS size times devicePixelRatio.
  await page.waitForFunction((sel) => {
    const c = document.querySelector(sel);
    return c && c.width === Math.round(c.getBoundingClientRect().width * window.devicePixelRatio);
  }, OCCUPANCY);
  const stats = await canvasStats(page, OCCUPANCY, USED_COLOURS);
  assert.equal(stats.dpr, 2);
  assert.equal(stats.width, Math.round(stats.clientWidth * stats.dpr));
  assert.equal(stats.height, Math.round(stats.clientHeight * stats.dpr));
  assert.ok(stats.colours >= 8, `the canvas has ${stats.colours} distinct colours`);
  for (const [colour, n] of Object.entries(stats.counts)) {
    assert.ok(n >= 50, `the area of colour ${colour} has ${n} pixels`);
  }

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});
