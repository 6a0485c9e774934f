// Renaming a share as a person does (select the name, type a new one over it, passing
// through another share's name on the way), then Ctrl+Z: the jobs follow the rename at
// every keystroke, the scenario never breaks (Copy link stays enabled), and undo puts the
// old name back in one step. Screenshots in target/e2e/undo-*.png.
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

const jobShares = (page) =>
  page.$eval('[data-testid="json-editor"]', (t) => JSON.parse(t.value).jobs.map((j) => j.share));

test('typing "medium2" over "background" keeps its jobs, Ctrl+Z undoes it', async (t) => {
  const browser = await openBrowser('undo', { viewport: { width: 1440, height: 900 } });
  t.after(() => browser.close());
  const { page, problems } = browser;

  await page.goto(server.url);
  await waitForApp(page);
  await page.waitForSelector('[data-testid="share-row"]');
  const copy = page.locator('[data-testid="copy-link"]');
  const undo = page.locator('[data-testid="undo"]');
  const redo = page.locator('[data-testid="redo"]');
  assert.equal(await copy.isEnabled(), true);
  assert.equal(await undo.isDisabled(), true, 'nothing to undo yet');
  assert.equal(await redo.isDisabled(), true);
  assert.deepEqual(await jobShares(page), ['background', 'background', 'background', 'medium']);

  const name = page.locator('[data-testid="share-row"]').first().getByLabel('Share name');
  await name.scrollIntoViewIfNeeded();
  await name.click();
  await page.keyboard.press('Control+A');
  // One key at a time; after each, the link can still be copied.
  for (const ch of 'medium2') {
    await page.keyboard.type(ch);
    await page.waitForTimeout(60);
    assert.equal(await copy.isEnabled(), true, `Copy link enabled after typing "${ch}"`);
    if (ch === 'm' && (await name.inputValue()) === 'medium') {
      const held = page.locator('[data-testid="share-name-held"]');
      await held.waitFor();
      assert.match(await held.textContent(), /already called "medium"/);
      await shot(page, 'undo-colliding-name');
    }
  }
  await page.waitForFunction(
    () => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).shares[0].name === 'medium2',
  );
  assert.deepEqual(await jobShares(page), ['medium2', 'medium2', 'medium2', 'medium']);
  assert.equal(await copy.isEnabled(), true);
  assert.equal(await page.locator('[data-testid="field-error"]').count(), 0);
  assert.equal(await undo.isEnabled(), true);
  await shot(page, 'undo-renamed');

  // Ctrl+Z with the name field still focused: the rename goes, in one step.
  await page.keyboard.press('Control+Z');
  await page.waitForFunction(
    () => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).shares[0].name === 'background',
  );
  assert.equal(await name.inputValue(), 'background');
  assert.deepEqual(await jobShares(page), ['background', 'background', 'background', 'medium']);
  assert.equal(await copy.isEnabled(), true, 'Copy link stays enabled');
  assert.equal(await undo.isDisabled(), true, 'the whole rename was one step');
  assert.equal(await redo.isEnabled(), true);

  // Ctrl+Shift+Z redoes it, from anywhere on the page.
  await page.locator('h2#editor-heading').click();
  await page.keyboard.press('Control+Shift+Z');
  await page.waitForFunction(
    () => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).shares[0].name === 'medium2',
  );
  assert.equal(await copy.isEnabled(), true);
  await redo.isDisabled();
  // And the Undo button undoes it again.
  await undo.click();
  await page.waitForFunction(
    () => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).shares[0].name === 'background',
  );
  // Ctrl+Y redoes too (issue #34.12), from the page as from a form field.
  await page.locator('h2#editor-heading').click();
  await page.keyboard.press('Control+Y');
  await page.waitForFunction(
    () => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).shares[0].name === 'medium2',
    null,
    { timeout: 5_000 },
  );
  await undo.click();
  await page.waitForFunction(
    () => JSON.parse(document.querySelector('[data-testid="json-editor"]').value).shares[0].name === 'background',
  );
  await page.locator('.editor').screenshot({ path: join(SHOTS, 'undo-editor.png') });
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
});
