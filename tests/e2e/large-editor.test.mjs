// Issue #30: a large scenario's jobs stay text in the editor's document (src/editor/lazy.rs),
// so a form edit neither parses nor prints 20,000 jobs on the page's thread. What a person
// does on such a scenario must still do exactly what it does on a small one: an edit
// elsewhere keeps every job as it was; a share's rename carries its jobs along; a job shown
// in the jobs list can be edited and removed; a job can be added. Every test also fails on
// any console error, page error or failed request.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SHOTS, downloadFromFilesMenu, openBrowser, serveDist, waitForApp } from './helpers.mjs';

const JOBS = 20_000;

/** A scenario of `JOBS` jobs over two shares, over 1 MiB of text. */
function large() {
  const jobs = [];
  for (let i = 0; i < JOBS; i++) {
    jobs.push({
      id: `j${i}`,
      share: i % 3 === 0 ? 'batch' : 'research',
      instance_type: 'ml.g5.xlarge',
      instances: 1 + (i % 2),
      priority: i % 4,
      submit_s: i * 30,
      work_s: 600 + (i % 7) * 60,
    });
  }
  return {
    format: 'quotalab/v1',
    name: 'large',
    capacity: { 'ml.g5.xlarge': 40 },
    shares: [
      { name: 'research', limits: { 'ml.g5.xlarge': 24 }, strategy: 'LEND_AND_BORROW', borrow_limit: 50 },
      { name: 'batch', limits: { 'ml.g5.xlarge': 16 }, strategy: 'LEND' },
    ],
    jobs,
  };
}

let server;
let file;
before(async () => {
  server = await serveDist();
  await mkdir(SHOTS, { recursive: true });
  file = join(SHOTS, 'large-editor.json');
  const text = JSON.stringify(large(), null, 1);
  assert.ok(text.length > 1 << 20, 'over the 1 MiB the editor keeps jobs as text from');
  await writeFile(file, text);
});
after(() => server?.close());

/** The scenario as the Files menu exports it. */
async function exported(page) {
  const { bytes } = await downloadFromFilesMenu(page, 'export-scenario');
  return JSON.parse(bytes.toString('utf8'));
}

/** Waits until the result is of a scenario with `n` jobs and nothing is pending. */
async function settled(page, n) {
  await page.waitForFunction(
    (n) => {
      const bar = document.querySelector('[data-testid="run-progress"]');
      const text = document.querySelector('[data-testid="summary-table"]')?.innerText ?? '';
      return bar?.dataset.state === 'idle' && !document.querySelector('.results[data-stale=true]') && text.includes(n);
    },
    n,
    { timeout: 120_000 },
  );
}

test('a 20,000-job scenario: edits elsewhere keep the jobs, a rename carries them, a job is edited, removed and added', async (t) => {
  const { page, problems, close } = await openBrowser('large-editor', { viewport: { width: 1440, height: 1000 } });
  t.after(close);
  await page.goto(server.url);
  await waitForApp(page);
  await page.setInputFiles('[data-testid="import-scenario-input"]', file);
  await settled(page, '20,000');
  const original = large();

  // 1. A share's borrow limit: every job is kept as it was.
  const research = page.locator('[data-testid="share-row"]').first();
  const limit = research.locator('[data-testid="share-borrow-limit"] input, input[data-testid="share-borrow-limit"]').first();
  await limit.fill('30');
  await settled(page, '20,000');
  let now = await exported(page);
  assert.equal(now.shares[0].borrow_limit, 30);
  assert.deepEqual(now.jobs, original.jobs);

  // 2. The share renamed: its jobs follow (the whole document is edited for that).
  const name = research.locator('[data-testid="share-name"]');
  await name.fill('science');
  await name.press('Enter');
  await settled(page, '20,000');
  now = await exported(page);
  assert.equal(now.shares[0].name, 'science');
  assert.equal(now.jobs.filter((j) => j.share === 'science').length, original.jobs.filter((j) => j.share === 'research').length);
  assert.equal(now.jobs.filter((j) => j.share === 'research').length, 0);

  // 3. The first job, as the jobs list shows it: its work edited, then the job removed.
  const first = page.locator('[data-testid="job-row"]').first();
  await first.scrollIntoViewIfNeeded();
  const work = first.getByLabel('Work (s)');
  assert.equal(await work.inputValue(), '600');
  await work.fill('1234');
  await settled(page, '20,000');
  now = await exported(page);
  assert.equal(now.jobs[0].work_s, 1234);
  assert.deepEqual(now.jobs.slice(1), (() => {
    const rest = original.jobs.slice(1);
    for (const j of rest) if (j.share === 'research') j.share = 'science';
    return rest;
  })());
  await first.getByRole('button', { name: /Remove/ }).first().click();
  await settled(page, '19,999');
  now = await exported(page);
  assert.equal(now.jobs.length, JOBS - 1);
  assert.equal(now.jobs[0].id, 'j1');

  // 4. A job added: a new id, after the others.
  await page.locator('[data-testid="add-job"]').click();
  await settled(page, '20,000');
  now = await exported(page);
  assert.equal(now.jobs.length, JOBS);
  assert.equal(now.jobs.at(-2).id, `j${JOBS - 1}`);
  assert.ok(!original.jobs.some((j) => j.id === now.jobs.at(-1).id), now.jobs.at(-1).id);

  // 5. Undo brings the removed job back (the history holds texts: nothing lost).
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await settled(page, '20,000');
  now = await exported(page);
  assert.equal(now.jobs[0].id, 'j0');
  await page.screenshot({ path: join(SHOTS, 'large-editor.png') });
  assert.deepEqual(problems, []);
});
