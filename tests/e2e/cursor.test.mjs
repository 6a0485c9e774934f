// The time cursor as a person uses it: a click on a chart shows the state
// at that time where the click happened, the timeline uses its card's whole width, the
// "state at t" table fits its panel, and a multi-day run reads its times in days on the axes
// and in the panel alike. Screenshots go to target/e2e/cursor-*.png.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SHOTS, openBrowser, serveDist, waitForApp } from './helpers.mjs';

let server;
before(async () => {
  server = await serveDist();
});
after(async () => {
  await server?.close();
});

async function shot(page, name) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Waits until the canvas is drawn at its CSS width. */
async function drawn(page, selector) {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((sel) => {
    const c = document.querySelector(sel);
    return c && !c.hasAttribute('data-pending') && c.width === Math.round(c.getBoundingClientRect().width * window.devicePixelRatio);
  }, selector);
}

/** The box of `selector` against the viewport. */
function inViewport(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return {
      top: r.top,
      bottom: r.bottom,
      left: r.left,
      right: r.right,
      inside: r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
    };
  });
}

/** The timeline canvas against its card's content box, and the panel's table against the panel. */
function layout(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="chart-timeline"] canvas');
    const card = canvas.closest('section');
    const cs = getComputedStyle(card);
    const content = card.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const panel = document.querySelector('[data-testid="state-at"]');
    const ps = getComputedStyle(panel);
    const pr = panel.getBoundingClientRect();
    const innerRight = pr.left + panel.clientLeft + panel.clientWidth - parseFloat(ps.paddingRight);
    const waits = [...panel.querySelectorAll('table.state-counts [data-col="waiting"], table.state-counts thead th:last-child')];
    return {
      canvas: canvas.getBoundingClientRect().width,
      content,
      panelScroll: [panel.scrollWidth, panel.clientWidth],
      waitRight: Math.max(...waits.map((w) => w.getBoundingClientRect().right)),
      innerRight,
      waits: waits.length,
    };
  });
}

for (const [width, height] of [
  [1440, 900],
  [1024, 768],
]) {
  test(`at ${width}x${height} a click on a chart shows the state at that time beside it`, async (t) => {
    const browser = await openBrowser(`cursor-${width}`, { viewport: { width, height } });
    t.after(() => browser.close());
    const { page, problems } = browser;
    await page.goto(server.url);
    await waitForApp(page);

    // Click the allocation chart: the state at that time shows next to it, in view.
    const alloc = '[data-testid="chart-allocation"] canvas';
    await drawn(page, alloc);
    const box = await page.locator(alloc).first().boundingBox();
    await page.locator(alloc).first().click({ position: { x: box.width * 0.35, y: box.height / 2 } });
    const card = page.locator('[data-testid="cursor-card"]');
    await card.waitFor();
    assert.equal(await card.count(), 1, 'one card, on the clicked chart');
    assert.equal(
      await card.evaluate((c) => !!c.closest('[data-testid="chart-allocation"]')),
      true,
      'the card sits on the chart that was clicked',
    );
    const where = await inViewport(page, '[data-testid="cursor-card"]');
    assert.ok(where.inside, `the state at t is within the viewport: ${JSON.stringify(where)}`);
    assert.match(await card.textContent(), /State at \d/);
    assert.ok((await card.locator('table.state-counts tbody tr').count()) >= 2, 'counts per share');
    // And the wait column of the card's table is inside the card.
    const cardFit = await card.evaluate((c) => {
      const cells = [...c.querySelectorAll('[data-col="waiting"]')];
      return { right: Math.max(...cells.map((e) => e.getBoundingClientRect().right)), edge: c.getBoundingClientRect().right, scroll: [c.scrollWidth, c.clientWidth] };
    });
    assert.ok(cardFit.right <= cardFit.edge, `card's wait column inside the card: ${JSON.stringify(cardFit)}`);
    assert.ok(cardFit.scroll[0] <= cardFit.scroll[1], `the card does not scroll sideways: ${cardFit.scroll}`);
    // The card tells the same time as the full panel.
    const panelTitle = (await page.locator('[data-testid="state-at"] .state-title').textContent()).trim();
    assert.equal((await card.locator('.cursor-card-title').textContent()).trim(), panelTitle);
    await shot(page, `cursor-${width}-allocation-card`);

    // Clicking another chart moves the card there; Close hides it, the cursor stays.
    const occ = '[data-testid="chart-occupancy"] canvas';
    await drawn(page, occ);
    const obox = await page.locator(occ).first().boundingBox();
    await page.locator(occ).first().click({ position: { x: obox.width * 0.8, y: obox.height / 2 } });
    await page.waitForFunction(() => document.querySelector('[data-testid="cursor-card"]')?.closest('[data-testid="chart-occupancy"]'));
    assert.equal(await page.locator('[data-testid="cursor-card"]').count(), 1);
    assert.ok((await inViewport(page, '[data-testid="cursor-card"]')).inside, 'the card is in view on the occupancy chart');
    await shot(page, `cursor-${width}-occupancy-card`);

    // Its link brings the full panel into view and focuses it.
    await page.locator('[data-testid="cursor-card"] .cursor-card-more').click();
    await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid="state-at"]');
      const r = p.getBoundingClientRect();
      return document.activeElement === p && r.top >= 0 && r.top < innerHeight / 2;
    });
    await page.locator('[data-testid="cursor-card"] .cursor-card-close').click();
    assert.equal(await page.locator('[data-testid="cursor-card"]').count(), 0, 'closed');
    assert.equal(await page.locator('.cursor-line').count() >= 3, true, 'the cursor stays');

    // The timeline is drawn at its card's whole width, and the panel's table fits.
    await drawn(page, '[data-testid="chart-timeline"] canvas');
    const l = await layout(page);
    assert.ok(Math.abs(l.canvas - l.content) <= 2, `timeline ${l.canvas} px wide in a ${l.content} px card`);
    assert.ok(l.waits >= 2, 'the wait column is there');
    assert.ok(l.waitRight <= l.innerRight + 0.5, `wait column's right edge ${l.waitRight} inside the panel (${l.innerRight})`);
    assert.ok(l.panelScroll[0] <= l.panelScroll[1], `the panel does not scroll sideways: ${l.panelScroll}`);
    await page.locator('section:has(#timeline-heading)').screenshot({ path: join(SHOTS, `cursor-${width}-timeline.png`) });

    assert.deepEqual(problems, [], 'no console error, page error or failed request');
  });
}

test('on a multi-day run the panel tells time in the axis unit (days)', async (t) => {
  const browser = await openBrowser('cursor-philly', { viewport: { width: 1440, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  const before = await page.$eval('table.summary tbody', (b) => b.textContent);
  await page.getByTestId('preset-select').selectOption('philly');
  await page.waitForFunction((p) => document.querySelector('table.summary tbody')?.textContent !== p, before, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 60_000 });

  const canvas = '[data-testid="chart-timeline"] canvas';
  await drawn(page, canvas);
  const unit = await page.$eval(canvas, (c) => c.dataset.timeUnit);
  assert.equal(unit, 'd', 'the Philly sample spans days: its time axes are in days');
  const box = await page.locator(canvas).boundingBox();
  await page.locator(canvas).click({ position: { x: box.width * 0.55, y: box.height / 2 } });
  await page.locator('[data-testid="cursor-card"]').waitFor();
  const title = (await page.locator('[data-testid="state-at"] .state-title').textContent()).trim();
  // "State at 4 d 7 h", never "103 h 19 min".
  assert.match(title, /^State at \d+ d( \d+ h)?$/, title);
  const card = (await page.locator('[data-testid="cursor-card"] .cursor-card-title').textContent()).trim();
  assert.equal(card, title);
  const valuetext = await page.$eval(canvas, (c) => c.getAttribute('aria-valuetext'));
  assert.equal(valuetext, title.replace('State at ', 't = '));
  // Every chart over time has the same unit (once drawn: a chart far from the viewport
  // draws the new run when it comes near).
  for (const c of await page.locator('canvas[data-time-unit]').all()) {
    await c.scrollIntoViewIfNeeded();
    await c.evaluate((el) => new Promise((ok) => {
      const check = () => (el.hasAttribute('data-pending') ? requestAnimationFrame(check) : ok());
      check();
    }));
  }
  await page.locator(canvas).scrollIntoViewIfNeeded();
  const units = await page.$$eval('canvas[data-time-unit]', (cs) => [...new Set(cs.map((c) => c.dataset.timeUnit))]);
  assert.deepEqual(units, ['d']);
  assert.ok((await inViewport(page, '[data-testid="cursor-card"]')).inside, 'the card is in view');
  await shot(page, 'cursor-philly-timeline-card');

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

test('at 390x844 the card goes under the chart, in view', async (t) => {
  const browser = await openBrowser('cursor-390', { viewport: { width: 390, height: 844 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  const alloc = '[data-testid="chart-allocation"] canvas';
  await drawn(page, alloc);
  const box = await page.locator(alloc).first().boundingBox();
  await page.locator(alloc).first().click({ position: { x: box.width * 0.5, y: box.height / 2 } });
  const card = page.locator('[data-testid="cursor-card"]');
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  const c = await card.boundingBox();
  const canvasBox = await page.locator(alloc).first().boundingBox();
  assert.ok(c.y >= canvasBox.y + canvasBox.height - 1, 'under the chart, not over it');
  assert.ok(c.x >= 0 && c.x + c.width <= 390, `within the width: ${JSON.stringify(c)}`);
  await shot(page, 'cursor-390-allocation-card');
  await drawn(page, '[data-testid="chart-timeline"] canvas');
  const l = await layout(page);
  assert.ok(Math.abs(l.canvas - l.content) <= 2, `timeline ${l.canvas} px wide in a ${l.content} px card`);
  assert.ok(l.waitRight <= l.innerRight + 0.5, `wait column inside the panel: ${JSON.stringify(l)}`);
  await page.locator('section:has(#timeline-heading)').screenshot({ path: join(SHOTS, 'cursor-390-timeline.png') });
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});
