// The first page: the AWS walkthrough preset, run through the engine on load.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { canvasStats, openBrowser, serveDist, SHOTS, waitForApp } from './helpers.mjs';

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

  // The first run's time is the run's, not the engine's start: the run was sent before the
  // engine worker was ready, so it waited longer than the time the status line gives it.
  const status = await page.getByTestId('run-stats').textContent();
  const shown = Number(status.match(/ in (<1|[\d,]+) ms/)?.[1].replace(/,/g, '').replace('<1', '0'));
  const waited = Number(await page.getByTestId('run-stats').getAttribute('data-run-ms'));
  assert.ok(Number.isFinite(shown) && shown < waited, `"${status}": the engine's start is not counted (the page waited ${waited} ms)`);

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

// The event log at the three widths of issue #34 (the Kueue preset's long ClusterQueue and
// job names): no column is clipped out of view (the log never scrolls sideways), and no cell's
// text runs over its neighbour (at 390 px the ClusterQueue overprinted the job id).
test('the event log is readable at 1440, 1024 and 390 px: nothing clipped, no cell over another', async (t) => {
  const browser = await openBrowser('page-event-log', { viewport: { width: 1440, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  await page.getByTestId('preset-select').selectOption('kueue');
  await page.waitForFunction(() => document.querySelector('[data-testid="event-row"] td.job')?.textContent.includes('team-a-cq'));
  for (const [width, height] of [[1440, 900], [1024, 768], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    const log = page.getByTestId('event-log');
    await log.scrollIntoViewIfNeeded();
    const g = await page.$eval('.event-scroll', (box) => {
      const rects = (el) => el.getBoundingClientRect();
      const rows = [...box.querySelectorAll('[data-testid="event-row"]')].slice(0, 30);
      const overlaps = [];
      const spills = [];
      for (const [r, tr] of rows.entries()) {
        const cells = [...tr.children];
        for (const c of cells) {
          if (c.scrollWidth > c.clientWidth + 1) spills.push(`row ${r} ${c.className}: ${c.scrollWidth} > ${c.clientWidth}`);
        }
        for (let i = 0; i < cells.length; i++) {
          for (let j = i + 1; j < cells.length; j++) {
            const a = rects(cells[i]);
            const b = rects(cells[j]);
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 1 && y > 1) overlaps.push(`row ${r}: ${cells[i].className} over ${cells[j].className}`);
          }
        }
      }
      const what = rows[0]?.querySelector('td.what');
      return {
        scroll: box.scrollWidth,
        client: box.clientWidth,
        rows: rows.length,
        overlaps,
        spills,
        whatInside: what ? rects(what).right <= rects(box).right + 1 : false,
      };
    });
    assert.ok(g.rows > 10, `${width} px: rows drawn`);
    assert.ok(g.scroll <= g.client + 1, `${width} px: the log does not scroll sideways (${g.scroll} > ${g.client})`);
    assert.ok(g.whatInside, `${width} px: "What happened" is inside the log's box`);
    assert.deepEqual(g.overlaps, [], `${width} px: no cell over another`);
    assert.deepEqual(g.spills, [], `${width} px: no cell's text runs out of it`);
    await log.screenshot({ path: join(SHOTS, `page-event-log-${width}.png`) });
  }
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

// Issue #34 (fresh-eyes walk): the toolbar split after "Copy link". At 1440 and 1024 px, for
// every preset, the share controls sit on one line, inside the window, clear of the Run
// button and the run status.
test('the toolbar at 1440 and 1024 px: the share controls on one line, in the window, for every preset', async (t) => {
  const browser = await openBrowser('page-toolbar', { viewport: { width: 1440, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  const presets = await page.$$eval('[data-testid="preset-select"] option:not([disabled])', (os) => os.map((o) => o.value));
  for (const preset of presets) {
    await page.getByTestId('preset-select').selectOption(preset);
    await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]') && document.querySelector('[data-testid="run-progress"]')?.dataset.state === 'idle', null, { timeout: 60_000 });
    // The link's length arrives from the worker after the run.
    await page.waitForFunction(() => /characters|no link/.test(document.querySelector('[data-testid="link-length"]')?.textContent ?? ''), null, { timeout: 30_000 });
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      const g = await page.evaluate(() => {
        const box = (e) => e.getBoundingClientRect();
        const controls = [...document.querySelectorAll('.share-controls > :not(.visually-hidden)')].map((e) => [e.dataset.testid ?? e.className, box(e)]);
        const status = box(document.querySelector('.run-status'));
        const run = box(document.querySelector('[data-testid="run"]'));
        const mids = controls.map(([, r]) => (r.top + r.bottom) / 2);
        return {
          spread: Math.max(...mids) - Math.min(...mids),
          right: Math.max(...controls.map(([, r]) => r.right)),
          over: controls.filter(([, r]) => [status, run].some((o) => r.left < o.right && r.right > o.left && r.top < o.bottom && r.bottom > o.top)).map(([n]) => n),
          width: document.documentElement.clientWidth,
        };
      });
      assert.ok(g.spread < 12, `${preset} at ${width} px: the share controls on one line (${g.spread} px apart)`);
      assert.ok(g.right <= g.width, `${preset} at ${width} px: inside the window (${g.right} > ${g.width})`);
      assert.deepEqual(g.over, [], `${preset} at ${width} px: clear of Run and the run status`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  await page.setViewportSize({ width: 1024, height: 900 });
  await page.locator('.toolbar').screenshot({ path: join(SHOTS, 'page-toolbar-1024.png') });
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});
