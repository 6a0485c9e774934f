// The CSV trace import as a newcomer meets it: unmatched columns leave the
// pickers empty and Import agrees; a binary file says "this is not a CSV file"; an import
// that would skip most rows asks first. Screenshots: target/e2e/trace-import-*.png.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SHOTS, openBrowser, serveDist, waitForApp } from './helpers.mjs';

let server;
before(async () => {
  server = await serveDist();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await server?.close();
});

const shot = (page, name) => page.locator('[data-testid="trace-dialog"]').screenshot({ path: join(SHOTS, `trace-import-${name}.png`) });
const editorJson = async (page) => JSON.parse(await page.locator('[data-testid="json-editor"]').inputValue());

/** The value and the shown text of a `<select>`. */
const picker = (page, testid) =>
  page.locator(`select[data-testid="${testid}"]`).evaluate((s) => ({ value: s.value, shown: s.selectedOptions[0]?.textContent.trim() ?? '' }));

async function pick(page, name, bytes) {
  const path = join(SHOTS, name);
  await writeFile(path, bytes);
  await page.setInputFiles('[data-testid="trace-file"]', path);
}

test('CSV import: empty pickers, garbage refused, a lossy import asks first', async (t) => {
  const { page, problems, close } = await openBrowser('trace-import', { viewport: { width: 1280, height: 1000 } });
  t.after(close);
  await page.goto(server.url);
  await waitForApp(page);
  await page.locator('[data-testid="trace-open"]').click();
  await page.locator('[data-testid="trace-dialog"]').waitFor();

  // Columns that match nothing: the pickers say so, and Import says the same.
  await pick(page, 'odd-columns.csv', 'a,b,c\n1,2,3\n4,5,6\n');
  await page.locator('[data-testid="trace-preview"]').waitFor();
  assert.deepEqual(await picker(page, 'submit'), { value: '', shown: '— pick a column —' });
  assert.deepEqual(await picker(page, 'duration'), { value: '', shown: '— pick a column —' });
  await page.locator('[data-testid="trace-import"]').click();
  const said = await page.locator('[data-testid="trace-problems"]').innerText();
  assert.match(said, /Submit time column: pick a column/);
  assert.match(said, /Duration column: pick a column/);
  await shot(page, 'unmatched');

  // Binary garbage: no preview, a plain message.
  const noise = Buffer.alloc(3000);
  let x = 12345;
  for (let i = 0; i < noise.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    noise[i] = x >>> 24;
  }
  await pick(page, 'garbage.csv', noise);
  await page.locator('[data-testid="trace-problems"]', { hasText: 'garbage.csv' }).waitFor();
  assert.match(await page.locator('[data-testid="trace-problems"]').innerText(), /garbage\.csv: this is not a CSV file: /);
  assert.equal(await page.locator('[data-testid="trace-preview"]').count(), 0);
  await shot(page, 'garbage');

  // 7 of 10 rows unreadable: the form asks before replacing the scenario.
  const before = await editorJson(page);
  const lines = ['submit,duration,team'];
  for (let i = 0; i < 3; i++) lines.push(`${i * 60},600,vision`);
  for (let i = 0; i < 5; i++) lines.push(`${i * 60},soon,vision`);
  for (let i = 0; i < 2; i++) lines.push(`later,600,speech`);
  await pick(page, 'lossy.csv', lines.join('\n') + '\n');
  await page.locator('[data-testid="trace-preview"] caption', { hasText: 'lossy.csv' }).waitFor();
  await page.locator('[data-testid="trace-import"]').click();
  const confirm = page.locator('[data-testid="trace-confirm"]');
  await confirm.waitFor();
  assert.match(
    await confirm.innerText(),
    /7 of 10 rows would be skipped: duration: not a number \(5 rows\); submit: not a number or a YYYY-MM-DD HH:MM:SS timestamp \(2 rows\)\./,
  );
  await confirm.scrollIntoViewIfNeeded();
  await shot(page, 'lossy-confirm');
  await page.locator('[data-testid="trace-import-cancel"]').click();
  assert.equal(await confirm.count(), 0);
  assert.deepEqual(await editorJson(page), before, 'Cancel keeps the scenario');
  await page.locator('[data-testid="trace-import"]').click();
  await page.locator('[data-testid="trace-import-anyway"]').click();
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).name === 'trace lossy.csv');
  assert.equal((await editorJson(page)).jobs.length, 3);
  assert.match(await page.locator('[data-testid="share-notice"]').innerText(), /Imported 3 jobs from 10 rows into 1 share; 7 rows were skipped\./);
  assert.deepEqual(problems, []);
});
