// The scenario editor, used as a person would: change a share's strategy with the select and
// see the summary change; type an invalid value and see the error beside the field and the
// results marked stale; fix it and see both go. Screenshots in target/e2e/editor-*.png.
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

const summaryText = (page) =>
  page.$eval('[data-testid="summary-table"], table.summary', (t) => t.textContent.trim());

async function shot(page, name) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Whether the results column is marked stale, and the text of its label. */
const staleState = (page) =>
  page.$eval('.results', (el) => ({
    stale: el.classList.contains('stale'),
    label: getComputedStyle(el, '::before').content,
  }));

test('editing a share, breaking a field and fixing it, as a person would', async (t) => {
  const browser = await openBrowser('editor', { viewport: { width: 1280, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;

  await page.goto(server.url);
  await waitForApp(page);
  await page.waitForSelector('[data-testid="share-row"]');
  const rows = page.locator('[data-testid="share-row"]');
  assert.equal(await rows.count(), 3, 'one row per share of the walkthrough');
  const background = rows.first();
  assert.equal(await background.getByLabel('Share name').inputValue(), 'background');
  assert.equal(
    (await background.locator('[data-testid="borrow-instances"]').textContent()).trim(),
    '200% = 2 instances',
  );
  await page.waitForFunction(() => document.querySelector('.results').dataset.stale === 'false');
  const before = await summaryText(page);

  // 1. background: LEND_AND_BORROW -> RESERVE, with the select. It can no longer borrow,
  //    so the summary changes.
  const strategy = background.locator('[data-testid="share-strategy"]');
  await strategy.focus();
  await strategy.selectOption({ label: 'RESERVE' });
  await page.waitForFunction(
    (prev) => {
      const t = document.querySelector('[data-testid="summary-table"], table.summary');
      return t && t.textContent.trim() !== prev && !document.querySelector('.results[data-stale=true]');
    },
    before,
    { timeout: 10_000 },
  );
  assert.notEqual(await summaryText(page), before, 'the summary changed');
  const json = JSON.parse(await page.locator('[data-testid="json-editor"]').inputValue());
  assert.equal(json.shares[0].strategy, 'RESERVE', 'the JSON view follows the form');
  assert.equal(json.shares[0].borrow_limit, undefined, 'a RESERVE share has no borrow limit');
  assert.ok(await background.locator('[data-testid="share-borrow-limit"]').isDisabled());
  assert.match(await page.locator('[data-testid="run-stats"]').textContent(), /jobs, .* events in/);
  await shot(page, 'editor-reserve');

  // 2. An invalid value: priority 10000 on the first explicit job.
  const job = page.locator('[data-testid="job-row"]').first();
  const priority = job.getByLabel('Priority', { exact: true });
  await priority.scrollIntoViewIfNeeded();
  await priority.fill('10000');
  const error = job.locator('[data-testid="field-error"]');
  await error.waitFor({ timeout: 10_000 });
  assert.match(await error.textContent(), /9999/, 'the validator message is shown');
  assert.equal(await priority.getAttribute('aria-invalid'), 'true');
  // The error sits beside the priority field, not elsewhere.
  const box = await priority.boundingBox();
  const errBox = await error.boundingBox();
  assert.ok(
    Math.abs(errBox.x - box.x) < 4 && errBox.y > box.y && errBox.y - (box.y + box.height) < 20,
    `the error is just under the field (${JSON.stringify({ box, errBox })})`,
  );
  // Marked stale once that has lasted 300 ms (a quick re-run is never marked).
  await page.waitForSelector('.results.stale', { timeout: 5_000 });
  const stale = await staleState(page);
  assert.ok(stale.stale, 'the last good result stays, marked stale');
  assert.match(stale.label, /Stale/);
  await page.waitForTimeout(300); // let the stale marker fade in for the screenshot
  assert.match(await page.locator('[data-testid="run-stats"]').textContent(), /1 problem/);
  await shot(page, 'editor-invalid');

  // 3. Fixed: the error and the stale marker go.
  await priority.fill('5');
  await page.waitForFunction(
    () =>
      !document.querySelector('[data-testid="field-error"]') &&
      !document.querySelector('.results[data-stale=true]'),
    null,
    { timeout: 10_000 },
  );
  assert.equal(await priority.getAttribute('aria-invalid'), null);
  assert.equal(
    JSON.parse(await page.locator('[data-testid="json-editor"]').inputValue()).jobs[0].priority,
    5,
  );

  // 4. The keyboard reaches the controls, with a visible focus ring.
  await background.getByLabel('Share name').focus();
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const el = document.activeElement;
    const s = getComputedStyle(el);
    return { tag: el.tagName, label: el.getAttribute('aria-label'), outline: s.outlineStyle, width: s.outlineWidth };
  });
  assert.equal(focused.tag, 'BUTTON', `Tab moves to the row's buttons (${JSON.stringify(focused)})`);
  assert.notEqual(focused.outline, 'none', 'a visible focus ring');

  // 5. Adding a share from the keyboard.
  await page.locator('[data-testid="add-share"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="share-row"]').length === 4);
  await page.waitForFunction(
    () => !document.querySelector('.results[data-stale=true]'),
    null,
    { timeout: 10_000 },
  );

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

test('layout: editor beside the results on a laptop, one column on a narrow window', async (t) => {
  const wide = await openBrowser('editor-layout-1280', { viewport: { width: 1280, height: 800 } });
  t.after(() => wide.close());
  await wide.page.goto(server.url);
  await waitForApp(wide.page);
  await wide.page.waitForSelector('[data-testid="share-row"]');
  const [ed, res] = await Promise.all([
    wide.page.locator('.editor-column').boundingBox(),
    wide.page.locator('.results').boundingBox(),
  ]);
  assert.ok(ed.x + ed.width <= res.x, 'the editor is left of the results');
  const share = ed.width / (ed.width + res.width);
  assert.ok(share > 0.33 && share < 0.45, `the editor takes ~40% (${share.toFixed(2)})`);
  assert.ok(ed.width >= 400, `the editor is not cramped (${ed.width}px)`);
  // The legend is on the page, below the editor.
  const legend = await wide.page.locator('[data-testid="glossary"]').boundingBox();
  assert.ok(legend.y > ed.y);
  assert.deepEqual(wide.problems, []);

  const narrow = await openBrowser('editor-layout-900', { viewport: { width: 900, height: 800 } });
  t.after(() => narrow.close());
  await narrow.page.goto(server.url);
  await waitForApp(narrow.page);
  await narrow.page.waitForSelector('[data-testid="share-row"]');
  const [ed2, res2] = await Promise.all([
    narrow.page.locator('.editor-column').boundingBox(),
    narrow.page.locator('.results').boundingBox(),
  ]);
  assert.ok(res2.y >= ed2.y + ed2.height - 1, 'one column: the results come after the editor');
  const overflow = await narrow.page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `no horizontal scroll (${overflow}px)`);
  assert.deepEqual(narrow.problems, []);
});

test('a workload mix and a timed event, built with the forms', async (t) => {
  const browser = await openBrowser('editor-workload', { viewport: { width: 1440, height: 1000 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  await page.waitForSelector('[data-testid="share-row"]');
  await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'));

  await page.locator('[data-testid="add-workload"]').click();
  const w = page.locator('[data-testid="workload-row"]').first();
  await w.waitFor();
  await w.getByLabel('Share', { exact: true }).selectOption({ label: 'medium' });
  await w.getByLabel('Jobs', { exact: true }).fill('12');
  const work = w.locator('fieldset.dist', { has: page.locator('legend', { hasText: /^Work$/ }) });
  await work.getByLabel('kind').selectOption('lognormal');
  await work.getByLabel('median (s)').fill('900');
  await w.getByLabel('Saves checkpoints').check();

  await page.locator('[data-testid="add-event"]').click();
  const ev = page.locator('[data-testid="timed-event-row"]').nth(1);
  await ev.getByLabel('What happens').selectOption('update_share');
  await ev.getByLabel('Share', { exact: true }).selectOption({ label: 'medium' });
  await ev.getByLabel('At (s)').fill('3600');

  // 12 generated jobs of medium (medium-1..12) join the 4 explicit ones.
  await page.waitForFunction(
    () =>
      /16 jobs/.test(document.querySelector('[data-testid="run-stats"]').textContent) &&
      !document.querySelector('.results[data-stale=true]'),
    null,
    { timeout: 10_000 },
  );
  const json = JSON.parse(await page.locator('[data-testid="json-editor"]').inputValue());
  assert.deepEqual(json.workloads[0].work_s, { lognormal: { median: 900, sigma: 1.0 } });
  assert.equal(json.workloads[0].share, 'medium');
  assert.deepEqual(json.events[1], { at_s: 3600, update_share: { share: 'medium', strategy: 'RESERVE' } });
  assert.equal(await page.locator('[data-testid="field-error"]').count(), 0);

  await w.scrollIntoViewIfNeeded();
  await mkdir(SHOTS, { recursive: true });
  await page.locator('.editor-column').screenshot({ path: join(SHOTS, 'editor-workload-column.png') });
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

test("a section folds from anywhere on its heading, and its body's paint clips no focus ring", async (t) => {
  const browser = await openBrowser('editor-sections', { viewport: { width: 1440, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  await page.waitForSelector('[data-testid="share-row"]');
  const sections = page.locator('.editor details.ed-section');
  const n = await sections.count();
  assert.ok(n >= 3, `the editor has its sections (${n})`);
  for (let i = 0; i < n; i++) {
    const section = sections.nth(i);
    const summary = section.locator(':scope > summary');
    await summary.scrollIntoViewIfNeeded();
    const box = await summary.boundingBox();
    // A click 2 px above the heading's bottom edge (the last pixel row is the body's where
    // the edge falls between pixels): the body's box must not lie over the heading.
    const y = box.y + box.height - 2;
    await page.mouse.click(box.x + box.width / 2, y);
    assert.equal(await section.evaluate((d) => d.open), false, `section ${i} folds from its heading's bottom edge`);
    await page.mouse.click(box.x + box.width / 2, y);
    assert.equal(await section.evaluate((d) => d.open), true, `section ${i} opens again`);
  }
  // The body is paint-contained (content-visibility), so a control at its edge keeps its
  // focus ring only if the clip reaches past it.
  const first = page.locator('.editor .section-body input').first();
  await first.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const { ring, margin } = await page.evaluate(() => {
    const el = document.activeElement;
    const body = el.closest('.section-body');
    const own = getComputedStyle(el);
    const px = (v) => parseFloat(v) || 0;
    return {
      ring: px(own.outlineWidth) + px(own.outlineOffset),
      margin: px(getComputedStyle(body).overflowClipMargin),
    };
  });
  assert.ok(ring > 0, 'the focused field shows a ring');
  assert.ok(margin >= ring, `the body's paint reaches past the ring (clip ${margin}px, ring ${ring}px)`);
  assert.deepEqual(problems, []);
});
