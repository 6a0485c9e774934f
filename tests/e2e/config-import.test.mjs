// SPEC 13 in the page: the Files menu's "Import AWS Batch or Kueue configuration…" opens a
// dialog; a Kueue file (Kueue's documented cohort example, a fixture of the engine's tests)
// is detected as Kueue YAML, read in the configuration worker (a second wasm, fetched only
// now), its warnings listed; kept workloads of shares it lacks are an error naming them;
// without them, its ClusterQueues become the summary's shares, and Undo takes them back.
// Then the Kueue YAML export downloads. Screenshots: target/e2e/config-import-*.png.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, SHOTS, openBrowser, serveDist, waitForApp } from './helpers.mjs';

const KUEUE = join(ROOT, 'crates', 'engine', 'tests', 'config', 'kueue-cohort-example.yaml');

let server;
before(async () => {
  server = await serveDist();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await server?.close();
});

const dialogShot = (page, name) =>
  page.locator('[data-testid="config-dialog"]').screenshot({ path: join(SHOTS, `config-import-${name}.png`) });
const summaryShares = (page) =>
  page.$$eval('[data-testid="summary-row"]', (trs) => trs.map((tr) => tr.getAttribute('data-share')));

test('Kueue file: detected, warnings, kept jobs refused, shares replaced, undo; Kueue export', async (t) => {
  const { page, problems, close } = await openBrowser('config-import', { viewport: { width: 1280, height: 1000 } });
  t.after(close);
  const configRequests = [];
  page.on('request', (r) => {
    if (r.url().includes('quotalab-config')) configRequests.push(r.url());
  });
  await page.goto(server.url);
  await waitForApp(page);
  const before = await summaryShares(page);
  assert.ok(before.length > 0);
  assert.deepEqual(configRequests, [], 'the configuration worker is not loaded with the page');

  await page.locator('[data-testid="files-menu"] > summary').click();
  await page.locator('[data-testid="import-config"]').click();
  const dialog = page.locator('[data-testid="config-dialog"]');
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute('aria-labelledby'), 'config-heading');

  await page.setInputFiles('[data-testid="config-file"]', KUEUE);
  await page.locator('[data-testid="config-files"]', { hasText: 'kueue-cohort-example.yaml' }).waitFor();
  await page.locator('[data-testid="config-detected"]', { hasText: 'Detected: Kueue YAML' }).waitFor();
  assert.ok(configRequests.some((u) => u.endsWith('.wasm')), 'the worker fetched its wasm when used');

  // The walkthrough's jobs are of shares the file does not have: an error naming them.
  const errors = page.locator('[data-testid="config-errors"]');
  await errors.waitFor();
  assert.match(await errors.innerText(), /jobs\[0\]\.share: job .* is of share "background", which the imported configuration does not have/);
  assert.equal(await page.locator('[data-testid="config-apply"]').isDisabled(), true);
  await dialogShot(page, 'kept-jobs-refused');

  // The imported scenario alone.
  await page.locator('[data-testid="config-keep"]').uncheck();
  const summary = page.locator('[data-testid="config-summary"]');
  await summary.waitFor();
  assert.match(await summary.innerText(), /3 shares \(team-a-cq, team-b-cq, team-c-cq\), 1 cohort \(team-ab\)/);
  const warnings = await page.locator('[data-testid="config-warnings"]').innerText();
  assert.match(warnings, /ignored: namespaceSelector/);
  await page.locator('[data-testid="config-resource"]').waitFor();
  await dialogShot(page, 'ready');
  await page.locator('[data-testid="config-apply"]:not([disabled])').click();
  assert.equal(await dialog.isVisible(), false, 'the dialog closes');
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid="summary-row"]')].map((tr) => tr.getAttribute('data-share')).join() === 'team-a-cq,team-b-cq,team-c-cq',
  );
  const editor = JSON.parse(await page.locator('[data-testid="json-editor"]').inputValue());
  assert.equal(editor.model, 'kueue');

  // The Kueue export of what is on screen.
  await page.locator('[data-testid="files-menu"] > summary').click();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-kueue-yaml"]').click()]);
  assert.match(dl.suggestedFilename(), /-kueue\.yaml$/);
  const path = join(SHOTS, `config-import-${dl.suggestedFilename()}`);
  await dl.saveAs(path);
  const yaml = await readFile(path, 'utf8');
  assert.match(yaml, /kind: ClusterQueue/);
  assert.match(yaml, /name: "?team-b-cq"?/);

  // One undo step takes the import back.
  await page.locator('[data-testid="undo"]').click();
  await page.waitForFunction(
    (want) => [...document.querySelectorAll('[data-testid="summary-row"]')].map((tr) => tr.getAttribute('data-share')).join() === want,
    before.join(),
  );
  assert.deepEqual(problems, []);
});
