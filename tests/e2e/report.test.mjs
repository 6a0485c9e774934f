// The report export (SPEC 14): Files -> "Export report (HTML)" downloads one self-contained
// HTML file made in the lazily loaded tools wasm, byte for byte what `quotasim report`
// writes for the same scenario, and agreement text with markup stays text in the page and
// in the report. The report is saved as target/e2e/download-report-*.html.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, SHOTS, openBrowser, serveDist, waitForApp } from './helpers.mjs';

// `./run test` builds it for the whole-Philly release test before the e2e tests run.
const QUOTASIM = process.env.QUOTASIM ?? join(ROOT, 'target', 'release', 'quotasim');

let server;
before(async () => {
  server = await serveDist(process.env.QUOTALAB_DIST);
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await server?.close();
});

/** Clicks "Export report (HTML)" and returns the download's name and text. */
async function exportReport(page, tag) {
  await page.locator('[data-testid="files-menu"] > summary').click();
  const [dl] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.locator('[data-testid="export-report-html"]').click(),
  ]);
  const path = join(SHOTS, `download-report-${tag}.html`);
  await dl.saveAs(path);
  return { name: dl.suggestedFilename(), html: await readFile(path, 'utf8') };
}

/** The page's scenario text now (the bridge the tools read it from). */
const scenarioText = (page) => page.evaluate(() => window.quotalabHost.scenario());

test('the report downloads from the tools wasm, the same bytes as quotasim report', async (t) => {
  assert.ok(existsSync(QUOTASIM), `${QUOTASIM} is built (cargo build --release -p quotalab-cli)`);
  const browser = await openBrowser('report-export', { viewport: { width: 1440, height: 900 } });
  t.after(browser.close);
  const { page, problems } = browser;
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(server.url);
  await waitForApp(page);
  assert.deepEqual(requests.filter((u) => u.includes('quotalab-tools')), [], 'the tools are not fetched at load');
  await page.getByTestId('preset-select').selectOption('recovery');
  await page.waitForSelector('[data-testid=contract-card]');

  const { name, html } = await exportReport(page, 'recovery');
  assert.match(name, /\.html$/);
  assert.ok(requests.some((u) => u.includes('quotalab-tools')), 'the tools were fetched for the export');
  assert.doesNotMatch(html, /<script/i, 'no script');
  assert.doesNotMatch(html, /(src|href)="https?:/i, 'no external resource');
  assert.ok(html.split('<svg').length - 1 >= 5, 'every chart as inline SVG');
  for (const share of ['product', 'steady', 'flaky']) assert.ok(html.includes(share), `share ${share}`);
  assert.ok(html.includes('Product infrastructure lead'), 'an agreement beside its share');
  assert.ok(html.includes('Can it recover?'), 'the interruption-contract card');

  const text = await scenarioText(page);
  const native = spawnSync(QUOTASIM, ['report', '-'], { input: text, encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  // `quotasim` ends its output with a newline, as every command does.
  assert.ok(native.stdout.replace(/\n$/, '') === html.replace(/\n$/, ''), 'the page and quotasim report write the same bytes');
  assert.deepEqual(problems, []);
});

test('markup in every agreement field stays text in the page and in the report', async (t) => {
  const browser = await openBrowser('report-markup', { viewport: { width: 1440, height: 900 } });
  t.after(browser.close);
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  await page.getByTestId('preset-select').selectOption('recovery');
  await page.waitForSelector('[data-testid=contract-card]');
  const scenario = JSON.parse(await scenarioText(page));
  const evil = (field) => `<img src=x onerror="window.__pwned='${field}'"><script>window.__pwned='${field}'</script>`;
  scenario.name = `Report ${evil('name')}`;
  scenario.shares[0].agreement = {
    owner: evil('owner'),
    rationale: evil('rationale'),
    interruption_contract: evil('interruption_contract'),
    review_by: evil('review_by'),
  };
  // As if opened from a file: the page takes it as a new scenario (undoable).
  await page.evaluate((text) => window.quotalabHost.apply(text, true), JSON.stringify(scenario, null, 1));
  await page.waitForFunction(() => document.querySelector('[data-testid=contract-card]')?.textContent.includes('onerror'));

  const card = page.getByTestId('contract-card').first();
  assert.equal(await card.locator('img, script').count(), 0, 'no element made from agreement text');
  assert.ok((await card.textContent()).includes('<script>'), 'the markup shows as text');
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null, 'nothing ran');

  const { html } = await exportReport(page, 'markup');
  assert.doesNotMatch(html, /<script/i, 'no script element in the report');
  assert.doesNotMatch(html, /<img/i, 'no img element in the report');
  assert.ok(html.includes('&lt;script&gt;'), 'the markup is escaped');
  for (const field of ['owner', 'rationale', 'interruption_contract', 'review_by']) {
    assert.ok(html.includes(`window.__pwned=&#39;${field}&#39;`) || html.includes(`window.__pwned=&#x27;${field}&#x27;`), `${field} is in the report, escaped`);
  }
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null, 'nothing ran');
  assert.deepEqual(problems, []);
});
