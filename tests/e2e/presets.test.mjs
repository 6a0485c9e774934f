// Presets, explanations and compare, as a person uses them: pick each preset and see the
// summary change, open the event log and filter it to preemptions, open a job's history,
// read the checkpoint advisor, switch compare on. Screenshots in target/e2e/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SHOTS, openBrowser, serveDist, waitForApp } from './helpers.mjs';

const shot = (name) => ({ path: join(SHOTS, `${name}.png`) });

let server;
before(async () => {
  server = await serveDist();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await server?.close();
});

/** The summary table's body as text (the table belongs to the results view). */
const summaryText = (page) =>
  page.$eval('table.summary tbody', (tb) => tb.textContent).catch(() => '');

/** Share names of the summary rows, in order. */
const summaryShares = (page) =>
  page.$$eval('table.summary tbody tr', (trs) =>
    trs.map((tr) => tr.dataset.share ?? tr.querySelector('th')?.textContent.trim()),
  );

/** Waits until the summary shows something else than `before`, and no run is pending. */
async function waitForNewSummary(page, before) {
  await page.waitForFunction(
    (prev) => {
      const tb = document.querySelector('table.summary tbody');
      return tb && tb.textContent !== prev;
    },
    before,
    { timeout: 60_000 },
  );
  await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, {
    timeout: 60_000,
  });
}

test('each preset loads, simulates and changes the summary', async (t) => {
  const browser = await openBrowser('presets');
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);

  const select = page.getByTestId('preset-select');
  assert.equal(await select.count(), 1, 'a preset menu in the toolbar');
  assert.equal(await select.inputValue(), 'aws', 'the walkthrough is loaded first');
  const options = await select.locator('option:not([disabled])').evaluateAll((os) =>
    os.map((o) => ({ value: o.value, label: o.textContent.trim() })),
  );
  assert.ok(options.length >= 4, `presets: ${JSON.stringify(options)}`);

  const expected = {
    aws: ['background', 'medium', 'protected'],
    partition: ['vision', 'language', 'speech', 'batch'],
    pool: ['vision', 'language', 'speech', 'batch'],
    research: ['research', 'product', 'platform'],
  };
  const seen = new Set([await summaryText(page)]);
  // The walkthrough is already shown: visit the others, then come back to it.
  const order = [...options.filter((o) => o.value !== 'aws'), options.find((o) => o.value === 'aws')];
  for (const { value, label } of order) {
    const before = await summaryText(page);
    await select.selectOption(value);
    await waitForNewSummary(page, before);
    assert.equal(await select.inputValue(), value, `${label} is shown as picked`);
    assert.equal(await page.locator('.error-box').count(), 0, `${label}: no error box`);
    assert.equal(await page.locator('#panic-banner').count(), 0, `${label}: no panic`);
    const shares = await summaryShares(page);
    if (expected[value]) assert.deepEqual(shares, expected[value], `${label}: its shares`);
    const text = await summaryText(page);
    if (value !== 'aws') assert.ok(!seen.has(text), `${label}: the summary changed`);
    seen.add(text);
    const desc = (await page.locator('.preset-description').textContent()).trim();
    assert.ok(desc.length > 40, `${label} is described: ${desc}`);
    await page.screenshot(shot(`preset-${value}`));
  }

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

test('the event log filters to preemptions and opens a job history', async (t) => {
  const browser = await openBrowser('event-log');
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);

  const log = page.getByTestId('event-log');
  await log.scrollIntoViewIfNeeded();
  const rows = log.getByTestId('event-row');
  await rows.first().waitFor();
  const total = await rows.count();
  assert.ok(total > 10, `the walkthrough's events are listed (${total})`);

  await log.getByTestId('event-filter-kind').selectOption('preempt');
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=event-row]:not([data-kind=preempt])').length === 0,
  );
  const kinds = await rows.evaluateAll((rs) => rs.map((r) => r.dataset.kind));
  assert.equal(kinds.length, 2, 'one reclaim and one in-share preemption');
  const reclaim = log.locator('[data-testid=event-row][data-by="med-1"]');
  assert.equal((await reclaim.locator('td.job').textContent()).trim(), 'bg-p2');
  assert.match(await reclaim.locator('td.what').textContent(), /reclaimed by med-1: medium lends its idle/);
  await log.screenshot(shot('event-log-preemptions'));

  // A person clicks the preempted job to see its story.
  await log.getByRole('button', { name: 'Show the history of bg-p3' }).click();
  const history = page.getByTestId('job-history');
  await history.waitFor();
  assert.equal((await history.getByTestId('history-preemptions').textContent()).trim(), '1 preemption');
  assert.match(await history.getByTestId('history-events').textContent(), /preempted by bg-p1/);
  await history.scrollIntoViewIfNeeded();
  await history.screenshot(shot('job-history'));

  // The 5,000-job preset: the log shows its first 100 rows, and 500 more per click.
  const before = await summaryText(page);
  await page.getByTestId('preset-select').selectOption('research');
  await waitForNewSummary(page, before);
  await log.getByTestId('event-filter-kind').selectOption('');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=event-row]').length === 100);
  await log.getByTestId('event-log-more').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=event-row]').length === 600);
  assert.match(await log.getByTestId('event-status').textContent(), /showing 600/);

  const advisor = page.getByTestId('checkpoint-advisor');
  await advisor.scrollIntoViewIfNeeded();
  assert.equal(await advisor.getByTestId('advisor-row').count(), 3);
  await advisor.screenshot(shot('checkpoint-advisor'));

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

test('compare shows as given, partitioned and pooled per share', async (t) => {
  const browser = await openBrowser('compare');
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);

  const before = await summaryText(page);
  await page.getByTestId('preset-select').selectOption('pool');
  await waitForNewSummary(page, before);

  const view = page.getByTestId('compare-view');
  await view.scrollIntoViewIfNeeded();
  assert.equal(await view.locator('table.compare').count(), 0, 'nothing computed while off');
  await page.getByTestId('compare-toggle').check();
  const tables = view.getByTestId('compare-table');
  await tables.first().waitFor();
  assert.deepEqual(
    await tables.evaluateAll((ts) => ts.map((t) => t.dataset.share)),
    ['vision', 'language', 'speech', 'batch'],
  );
  const heads = await tables
    .first()
    .locator('thead th[data-col]')
    .evaluateAll((ths) => ths.map((th) => th.textContent.trim()));
  assert.deepEqual(heads, ['As given', 'Partitioned', 'Pooled']);
  assert.ok((await view.locator('.delta.better').count()) > 0, 'some green deltas');
  assert.ok((await view.locator('.delta.worse').count()) > 0, 'some red deltas');
  assert.match(await view.getByTestId('compare-caption').textContent(), /As given vs partitioned: .*vision: mixed — better: p50 wait/);
  await view.screenshot(shot('compare-view'));

  // The biggest presets compare on the page too: how long it takes is shown.
  for (const id of ['research', 'philly']) {
    const prev = await summaryText(page);
    await page.getByTestId('preset-select').selectOption(id);
    await waitForNewSummary(page, prev);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=compare-table]').length === n &&
        /jobs simulated three ways/.test(document.querySelector('[data-testid=compare-status]')?.textContent ?? ''),
      id === 'research' ? 3 : 6,
    );
    const status = await view.getByTestId('compare-status').textContent();
    const ms = Number(status.match(/in ([\d,]+) ms/)[1].replace(/,/g, ''));
    console.log(`compare ${id}: ${status}`);
    assert.ok(ms < 5_000, `${id}: ${status}`);
  }

  // Compare follows the scenario: another preset, new tables.
  const before2 = await summaryText(page);
  await page.getByTestId('preset-select').selectOption('aws');
  await waitForNewSummary(page, before2);
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid=compare-table]')].map((t) => t.dataset.share).join() ===
      'background,medium,protected',
  );
  await page.getByTestId('compare-toggle').uncheck();
  assert.equal(await view.locator('table.compare').count(), 0);

  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

// Issue #34 (fresh-eyes walk): the checkpoint advisor's table was cut at the right at 1024
// and 390 px with only a faint shadow to say so. Where its columns do not fit, each share is
// a block of labelled values: nothing scrolls sideways, every value shows with its label.
test('the checkpoint advisor fits at 1440, 1024 and 390 px', async (t) => {
  for (const [width, height] of [[1440, 900], [1024, 800], [390, 844]]) {
    const browser = await openBrowser(`advisor-${width}`, { viewport: { width, height } });
    t.after(() => browser.close());
    const { page, problems } = browser;
    await page.goto(server.url);
    await waitForApp(page);
    const before = await summaryText(page);
    await page.getByTestId('preset-select').selectOption('research');
    await waitForNewSummary(page, before);
    const advisor = page.getByTestId('checkpoint-advisor');
    await advisor.scrollIntoViewIfNeeded();
    assert.equal(await advisor.getByTestId('advisor-row').count(), 3);
    const fit = await page.evaluate(() => {
      const box = document.querySelector('.advisor-scroll');
      const b = box.getBoundingClientRect();
      const cells = [...box.querySelectorAll('[data-testid=advisor-row] > *')].map((c) => {
        const r = c.getBoundingClientRect();
        return { col: c.dataset.col ?? 'share', left: r.left, right: r.right, w: r.width };
      });
      return { scroll: box.scrollWidth, client: box.clientWidth, left: b.left, right: b.right, cells };
    });
    assert.ok(fit.scroll <= fit.client + 1, `${width} px: the advisor scrolls sideways (${fit.scroll} > ${fit.client})`);
    for (const c of fit.cells) {
      assert.ok(c.w > 0 && c.left >= fit.left - 1 && c.right <= fit.right + 1, `${width} px: ${c.col} cut: ${JSON.stringify(c)} in ${fit.left}–${fit.right}`);
    }
    // A value's name is beside it, in the header or on the value.
    const labelled = await page.evaluate(() => {
      const td = document.querySelector('[data-testid=advisor-row] td[data-col=waste-young-daly]');
      const head = document.querySelector('table.advisor thead');
      return getComputedStyle(head).display !== 'none' || getComputedStyle(td, '::before').content.includes('Young/Daly');
    });
    assert.ok(labelled, `${width} px: the values are labelled`);
    await advisor.screenshot(shot(`checkpoint-advisor-${width}`));
    assert.deepEqual(problems, [], 'no console error, page error or failed request');
  }
});
