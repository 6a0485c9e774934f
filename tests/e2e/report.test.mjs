// The report export (SPEC 14): Files -> "Export report (HTML)" downloads one self-contained
// HTML file made in an engine worker (the page's one engine wasm), byte for byte what `quotasim report`
// writes for the same scenario (`quotasim report --compare` while the page's comparison is
// on, SPEC 9.1), its tables fit a 1024 px window and a printed page, and agreement text with
// markup stays text in the page and in the report. The report is saved as
// target/e2e/download-report-*.html.
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

/** `quotasim ARGS` on `input`: its standard output (it must succeed). */
function quotasim(args, input) {
  const run = spawnSync(QUOTASIM, args, { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(run.status, 0, `quotasim ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** Text as the report writes it (crates/report/src/html.rs, `escape`). */
const escapeHtml = (s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Every table of `html` shown at `width` (and printed, when `print`) that is wider than its
 * box or reaches past its section, and whether the document scrolls sideways.
 */
async function overflows(page, html, width, print) {
  const view = await page.context().newPage();
  try {
    await view.setViewportSize({ width, height: 900 });
    await view.emulateMedia({ media: print ? 'print' : 'screen' });
    await view.setContent(html);
    return await view.evaluate(() => {
      const out = [];
      const doc = document.documentElement;
      if (doc.scrollWidth > doc.clientWidth + 1) out.push(`the document: ${doc.scrollWidth} > ${doc.clientWidth}`);
      for (const t of document.querySelectorAll('table')) {
        const r = t.getBoundingClientRect();
        const box = t.parentElement;
        const section = t.closest('section').getBoundingClientRect();
        if (r.width > box.clientWidth + 0.5 || r.right > section.right + 0.5) {
          out.push(`${t.className} in ${box.dataset.share ?? box.parentElement.id}: ${r.width} wide in ${box.clientWidth}`);
        }
      }
      return out;
    });
  } finally {
    await view.close();
  }
}

test('the report downloads from an engine worker, the same bytes as quotasim report', async (t) => {
  assert.ok(existsSync(QUOTASIM), `${QUOTASIM} is built (cargo build --release -p quotalab-cli)`);
  const browser = await openBrowser('report-export', { viewport: { width: 1440, height: 900 } });
  t.after(browser.close);
  const { page, problems } = browser;
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(server.url);
  await waitForApp(page);
  const wasm = () => requests.filter((u) => u.endsWith('.wasm'));
  assert.equal(wasm().length, 2, 'the page and the engine: two wasm files in all');
  await page.getByTestId('preset-select').selectOption('recovery');
  await page.waitForSelector('[data-testid=contract-card]');

  const { name, html } = await exportReport(page, 'recovery');
  assert.match(name, /\.html$/);
  assert.equal(wasm().length, 2, 'the report fetched nothing more: the engine made it');
  assert.doesNotMatch(html, /<script/i, 'no script');
  assert.doesNotMatch(html, /(src|href)="https?:/i, 'no external resource');
  assert.ok(html.split('<svg').length - 1 >= 5, 'every chart as inline SVG');
  for (const share of ['product', 'steady', 'flaky']) assert.ok(html.includes(share), `share ${share}`);
  assert.ok(html.includes('Product infrastructure lead'), 'an agreement beside its share');
  assert.ok(html.includes('Can it recover?'), 'the interruption-contract card');
  // Its progress notice goes once the report is downloaded (it used to stay until dismissed).
  await page.waitForFunction(
    () => !(document.querySelector('[data-testid=share-notice]')?.textContent ?? '').includes('Making the report'),
    null,
    { timeout: 5_000 },
  );

  const text = await scenarioText(page);
  const native = spawnSync(QUOTASIM, ['report', '-'], { input: text, encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  // `quotasim` ends its output with a newline, as every command does.
  assert.ok(native.stdout.replace(/\n$/, '') === html.replace(/\n$/, ''), 'the page and quotasim report write the same bytes');
  assert.deepEqual(problems, []);
});

test('the hierarchical fair-sharing preset reports its infinite dominant share, from the worker as from quotasim', async (t) => {
  // Its weight-0 ClusterQueue draws the dominant chart's "infinite" note, whose box plotters
  // measured through the DOM: in the engine worker, which has none, the export panicked.
  const { page, problems, close } = await openBrowser('report-kueue-fair', { viewport: { width: 1440, height: 900 } });
  t.after(close);
  await page.goto(server.url);
  await waitForApp(page);
  await page.getByTestId('preset-select').selectOption('kueue-fair');
  await page.waitForFunction(() => /nlp/.test(document.querySelector('[data-testid="summary-table"]')?.textContent ?? ''));
  const { html } = await exportReport(page, 'kueue-fair');
  assert.ok(html.includes('top line: infinite (weight 0, borrowing)'), 'the dominant chart with its note');
  const native = spawnSync(QUOTASIM, ['report', '-'], { input: await scenarioText(page), encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  assert.ok(native.stdout.replace(/\n$/, '') === html.replace(/\n$/, ''), 'the page and quotasim report write the same bytes');
  assert.deepEqual(problems, []);
});

test('with the comparison on, the report holds it, the same bytes as quotasim report --compare', async (t) => {
  assert.ok(existsSync(QUOTASIM), `${QUOTASIM} is built (cargo build --release -p quotalab-cli)`);
  const browser = await openBrowser('report-compare', { viewport: { width: 1024, height: 900 } });
  t.after(browser.close);
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);
  // The research organisation: as given is neither partitioned nor pooled, so both
  // verdicts are written out.
  await page.getByTestId('preset-select').selectOption('research');
  await page.waitForFunction(() => /platform/.test(document.querySelector('table.summary tbody')?.textContent ?? ''), null, {
    timeout: 60_000,
  });
  await page.getByTestId('compare-toggle').check();
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid=compare-table]')].map((t) => t.dataset.share).join() === 'research,product,platform',
    null,
    { timeout: 60_000 },
  );

  const { html } = await exportReport(page, 'research-compare');
  const text = await scenarioText(page);
  assert.ok(
    quotasim(['report', '-', '--compare'], text).replace(/\n$/, '') === html.replace(/\n$/, ''),
    'the page and quotasim report --compare write the same bytes',
  );
  const at = html.indexOf('<section id="comparison">');
  assert.ok(at > html.indexOf('<section id="summary">'), 'the comparison, after the summary');
  const section = html.slice(at, html.indexOf('</section>', at));
  assert.ok(section.includes('Compare policies: what does lending change?'));
  assert.doesNotMatch(html, /<script/i, 'no script');

  // SPEC 9.1: the verdicts as `quotasim compare --summary` words them: two headlines, then a
  // sentence per share.
  const verdicts = quotasim(['compare', '-', '--summary'], text).split('\n\n')[0].split('\n').slice(1);
  assert.equal(verdicts.filter((l) => !l.startsWith('  ')).length, 2, verdicts.join('\n'));
  assert.equal(verdicts.filter((l) => l.startsWith('  ')).length, 6, verdicts.join('\n'));
  for (const line of verdicts) {
    assert.ok(section.includes(`>${escapeHtml(line.trim())}<`), `verdict in the report: ${line}`);
  }
  assert.equal(section.split('<li data-verdict="').length - 1, 6, 'a sentence per share and comparison');
  await page.getByTestId('compare-view').screenshot({ path: join(SHOTS, 'report-compare-view.png') });

  // The matched jobs of each share, as `quotasim compare` counts them, in its table.
  const { matched } = JSON.parse(quotasim(['compare', '-'], text));
  assert.deepEqual(Object.keys(matched), ['research', 'product', 'platform']);
  for (const [share, { n }] of Object.entries(matched)) {
    const from = section.indexOf(`<div class="compare-share" data-share="${share}">`);
    assert.ok(from >= 0, `${share}'s table`);
    const table = section.slice(from, section.indexOf('</table>', from));
    assert.ok(table.includes(`Matched jobs: ${n.toLocaleString('en-US')} (succeeded under all three policies`), `${share}: ${n} matched`);
    for (const col of ['as-given', 'partitioned', 'pooled']) assert.ok(table.includes(`data-col="${col}"`), `${share}: ${col}`);
  }

  // Every table fits a 1024 px window and a printed page.
  assert.deepEqual(await overflows(page, html, 1024, false), [], 'at 1024 px');
  assert.deepEqual(await overflows(page, html, 718, true), [], 'printed (an A4 page is about 718 px wide)');

  // Switched off again: the report without the comparison, as `quotasim report`.
  await page.getByTestId('compare-toggle').uncheck();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-table]').length === 0);
  const { html: plain } = await exportReport(page, 'research-compare-off');
  assert.ok(!plain.includes('<section id="comparison">'), 'no comparison while it is off');
  assert.ok(quotasim(['report', '-'], text).replace(/\n$/, '') === plain.replace(/\n$/, ''), 'quotasim report');
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
