// The Kueue model as a Kubernetes platform engineer uses it: pick the Kueue preset, read the
// cohort tree, click a chart to see the tree at that time, switch the AWS walkthrough to the
// Kueue model and back (undo). Screenshots in target/e2e/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SHOTS, openBrowser, serveDist, waitForApp } from './helpers.mjs';

let server;
before(async () => {
  server = await serveDist();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await server?.close();
});

const treeNames = (page) =>
  page.$$eval('[data-testid="cohort-tree-row"]', (rows) => rows.map((r) => r.dataset.name));

test('the Kueue preset shows its ClusterQueues in the summary and the cohort tree follows the cursor', async (t) => {
  const browser = await openBrowser('kueue-preset', { viewport: { width: 1440, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  assert.equal(await page.locator('[data-testid="cohort-tree-card"]').count(), 0, 'no tree for AWS');

  await page.getByTestId('preset-select').selectOption('kueue');
  await page.waitForSelector('[data-testid="cohort-tree-row"]', { timeout: 60_000 });
  const shares = await page.$$eval('table.summary tbody tr[data-share]', (trs) => trs.map((tr) => tr.dataset.share));
  assert.deepEqual(shares, ['team-a-cq', 'team-b-cq', 'team-c-cq']);
  assert.deepEqual(await treeNames(page), ['team-ab', 'team-a-cq', 'team-b-cq', 'team-c-cq']);
  const at = page.getByTestId('cohort-tree-at');
  assert.match(await at.textContent(), /busiest/);
  // Kueue's words in the results (issue #34.3/4): nominalQuota, not AWS's limit.
  assert.equal((await page.locator('table.summary thead th').first().textContent()).trim(), 'ClusterQueue');
  const legend = await page.locator('[data-testid="chart-allocation"] .legend').textContent();
  assert.match(legend, /nominalQuota/);
  assert.match(legend, /borrowed beyond its nominal quota/);
  assert.doesNotMatch(legend, /entitled|the limit/);
  assert.match(await page.locator('[data-testid="chart-allocation"] .panel-caption').first().textContent(), /^nominal quota \d/);
  // The words walk (issue #34, words 1): no "share" left in the summary's preemption
  // columns or the charts' introductions; a limit row is a ResourceFlavor's.
  const head = await page.locator('table.summary thead').innerText();
  assert.match(head, /within ClusterQueue/);
  assert.doesNotMatch(head, /in.share/);
  const titles = await page.$$eval('table.summary thead th[title]', (ths) => ths.map((th) => th.title));
  assert.ok(!titles.some((t) => /other shares|by a share|same share/.test(t)), titles.join(' | '));
  for (const chart of ['chart-occupancy', 'chart-completion', 'chart-interruption']) {
    const intro = await page.locator(`[data-testid="${chart}"] figcaption`).first().textContent();
    assert.match(intro, /ClusterQueue/, chart);
    assert.doesNotMatch(intro, /\bshare\b|in-share/, `${chart}: ${intro}`);
  }
  assert.ok((await page.getByLabel('ResourceFlavor 1', { exact: true }).count()) >= 1, 'a limit row names its ResourceFlavor');
  assert.equal(await page.getByLabel('type 1', { exact: true }).count(), 0, 'no AWS "type 1" label');
  const editorText = await page.locator('.editor').innerText();
  assert.match(editorText, /a workload that cannot be admitted lets later workloads of its ClusterQueue go/);
  assert.doesNotMatch(editorText, /later jobs of its share/);
  // Issue #34 (fresh-eyes walk 2): workloads, not jobs, in the run status, the first
  // screen's sentence, the timeline and the event log.
  assert.match(await page.getByTestId('run-stats').textContent(), /^90 workloads, [\d,]+ events in/);
  assert.match(await page.getByTestId('scenario-summary').textContent(), /^3 ClusterQueues share 24 ml\.g5\.xlarge under the Kueue model .*\. 90 workloads\.$/);
  assert.match(await page.locator('[data-testid="chart-timeline"] figcaption').textContent(), /^Each workload over time, coloured by ClusterQueue/);
  assert.match(await page.locator('[data-testid="event-log"] .explain-intro').textContent(), /pick a workload id/);
  assert.equal((await page.locator('table.events thead th').nth(2).textContent()).trim(), 'Workload');
  // The page names the Kueue release its model follows (issue #31.5).
  assert.match(await page.locator('.editor').innerText(), /as Kueue v\d+\.\d+\.\d+'s scheduler decides/);
  // The editor shows the ClusterQueue fields, not AWS's strategy.
  assert.equal(await page.getByTestId('share-strategy').count(), 0);
  assert.equal(await page.getByTestId('share-cohort').count(), 3);
  // Issue #34 (words 3): the timed events' help, the event log's submit rows, the Files
  // menu, the configuration import (before a file is picked) and the review speak Kueue.
  const editorAll = await page.locator('.editor').textContent();
  assert.match(editorAll, /change a ClusterQueue's quota or stopPolicy/);
  assert.doesNotMatch(editorAll, /change a share's limits/);
  assert.match(await page.locator('table.events tbody').textContent(), /submitted to its LocalQueue's ClusterQueue/);
  assert.doesNotMatch(await page.locator('table.events tbody').textContent(), /its share's queue/);
  await page.locator('[data-testid="files-menu"] > summary').click();
  assert.equal((await page.getByTestId('export-summary-csv').textContent()).trim(), 'Export summary per ClusterQueue (CSV)');
  await page.getByTestId('import-config').click();
  const configDialog = page.getByTestId('config-dialog');
  await configDialog.waitFor();
  assert.equal((await page.getByTestId('config-apply').textContent()).trim(), 'Replace the ClusterQueues');
  await configDialog.getByRole('button', { name: 'Cancel' }).click();
  await configDialog.waitFor({ state: 'hidden' });
  await page.locator('[data-testid="files-menu"] > summary').click();
  await page.getByTestId('review-change').click();
  const review = page.getByTestId('review-dialog');
  await review.waitFor();
  assert.match(await review.locator('#review-intro').textContent(), /each ClusterQueue's change/);
  await page.keyboard.press('Escape');
  await review.waitFor({ state: 'hidden' });

  // A click on the allocation chart moves the tree to that time.
  const alloc = page.locator('[data-testid="chart-allocation"] canvas').first();
  await alloc.scrollIntoViewIfNeeded();
  const box = await alloc.boundingBox();
  await alloc.click({ position: { x: box.width * 0.1, y: box.height / 2 } });
  await page.waitForFunction(() => /At the cursor/.test(document.querySelector('[data-testid="cohort-tree-at"]').textContent));
  const card = page.getByTestId('cohort-tree-card');
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: join(SHOTS, 'kueue-cohort-tree.png') });

  // Issue #34.10: a ClusterQueue with a borrowing limit leaves its cohort in one step: the
  // limits that apply only in a cohort go with it, said in a notice; Undo brings them back.
  const json = async () => JSON.parse(await page.locator('[data-testid="json-editor"]').inputValue());
  assert.ok((await json()).shares[0].borrowing_limit, 'team-a-cq has a borrowing limit');
  await page.getByTestId('share-cohort').first().selectOption({ label: 'none: stands alone' });
  await page.waitForFunction(() => /left its cohort, so its borrowingLimit/.test(document.querySelector('[data-testid="share-notice"]')?.textContent ?? ''));
  const alone = await json();
  assert.equal(alone.shares[0].cohort, undefined);
  assert.equal(alone.shares[0].borrowing_limit, undefined);
  await page.waitForSelector('[data-testid="field-error"]', { state: 'detached', timeout: 5_000 }).catch(() => {});
  assert.equal(await page.locator('[data-testid="field-error"]').count(), 0, 'no problem left behind');
  await page.getByRole('button', { name: /Undo/ }).click();
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).shares[0].borrowing_limit !== undefined);
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

test('the model switch turns the AWS walkthrough into ClusterQueues, and undo turns it back', async (t) => {
  const browser = await openBrowser('kueue-switch', { viewport: { width: 1280, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  const before = await page.$eval('table.summary tbody', (tb) => tb.textContent);
  await page.getByTestId('model').selectOption({ label: 'Kueue ClusterQueues and cohorts' });
  await page.waitForSelector('[data-testid="cohort-tree-row"]', { timeout: 60_000 });
  assert.deepEqual(await treeNames(page), ['quotalab', 'background', 'medium', 'protected']);
  // The notice says what the translation did.
  assert.match(await page.getByTestId('share-notice').textContent(), /Kueue model/);
  await page.screenshot({ path: join(SHOTS, 'kueue-switched.png') });
  // Issue #34.4: the editor speaks Kueue: ClusterQueues, ResourceFlavors, stopPolicy, the
  // API's strategy names, and only the scenario's flavors to pick from.
  const titles = await page.$$eval('.ed-section .section-title', (els) => els.map((e) => e.textContent.trim()));
  assert.ok(titles.includes('ClusterQueues') && titles.includes('ResourceFlavors and capacity'), titles.join(' | '));
  assert.ok(!titles.includes('Quota shares'), titles.join(' | '));
  assert.match(await page.getByTestId('add-share').textContent(), /\+ Add ClusterQueue/);
  assert.ok((await page.getByLabel('stopPolicy').count()) >= 1, 'stopPolicy, not State');
  const flavorChoices = await page.$$eval('select option', (os) => os.map((o) => o.textContent));
  assert.ok(!flavorChoices.some((t) => /ml\.p5\.48xlarge|ml\.trn1/.test(t)), 'no AWS catalogue flavors');
  assert.ok(flavorChoices.some((t) => /LessThanOrEqualToFinalShare/.test(t)), 'Kueue strategy names');
  // The cards that existed before the switch speak Kueue too, and so do the results.
  assert.equal(await page.getByLabel('Share name', { exact: true }).count(), 0, 'no "Share name" left');
  assert.equal(await page.getByLabel('ClusterQueue name', { exact: true }).count(), 3);
  assert.ok((await page.getByLabel(/^Capacity \(quota units\)/).count()) >= 1, 'a flavor\'s capacity in quota units');
  assert.match(await page.locator('table.events thead').textContent(), /ClusterQueue/);
  assert.match(await page.getByTestId('chart-timeline').textContent(), /preempted: within ClusterQueue/);
  assert.doesNotMatch(await page.getByTestId('chart-timeline').textContent(), /in-share|coloured by share/);
  await page.getByRole('button', { name: /Undo/ }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="cohort-tree-card"]') === null);
  // Issue #34.5: the notice about the switch goes with it.
  assert.equal(await page.getByTestId('share-notice').count(), 0, 'the switch notice is gone after Undo');
  assert.equal(await page.getByTestId('share-strategy').count(), 3, 'AWS fields are back');
  assert.equal(await page.getByLabel('Share name', { exact: true }).count(), 3, 'and the AWS words');
  await page.waitForFunction((b) => document.querySelector('table.summary tbody')?.textContent === b, before, { timeout: 60_000 });
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});

// Issue #34 (walk): on a 390 px phone the model picker shows the model's whole name, not
// "Kueue Cluster…", and the interruption bars' labels stay within their chart.
test('on a 390 px phone the model picker is not cut', async (t) => {
  const { page, problems, close } = await openBrowser('kueue-model-390', { viewport: { width: 390, height: 844 } });
  t.after(close);
  await page.goto(server.url);
  await waitForApp(page);
  await page.selectOption('[data-testid="preset-select"]', 'kueue');
  await page.locator('[data-testid="editor-fold"]').click();
  const model = page.locator('[data-testid="model"]');
  await model.scrollIntoViewIfNeeded();
  const g = await model.evaluate((s) => {
    const text = s.options[s.selectedIndex].text;
    const c = document.createElement('canvas').getContext('2d');
    c.font = getComputedStyle(s).font;
    // The text, its padding and the arrow (about 24 px) must fit.
    const cs = getComputedStyle(s);
    return { text, need: c.measureText(text).width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 24, width: s.clientWidth };
  });
  assert.equal(g.text, 'Kueue ClusterQueues and cohorts');
  assert.ok(g.need <= g.width, `the name fits: ${JSON.stringify(g)}`);
  await page.screenshot({ path: join(SHOTS, 'kueue-model-390.png') });
  assert.deepEqual(problems, []);
});
