// Keyboard and small screens: a skip link to the results, landmarks, the Files menu as a
// WAI-ARIA menu button (keys, Escape, outside clicks, focus back on the button), the menu
// inside the viewport at 390 px, and on small screens the results near the top with the
// editor folded. Screenshots at 1440x900, 1024x768 and 390x844: target/e2e/keyboard-*.png.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
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

const MENU = '[data-testid="files-menu"]';
const BUTTON = `${MENU} > summary`;

/** What has the focus: its test id, id, role, text and whether it is inside the results. */
const focused = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    return {
      tag: e?.tagName.toLowerCase(),
      testid: e?.dataset?.testid ?? null,
      id: e?.id || null,
      text: (e?.textContent ?? '').trim().slice(0, 60),
      inResults: !!e?.closest('.results'),
      isButton: !!e?.matches('[data-testid="files-menu"] > summary'),
    };
  });

const isOpen = (page) => page.$eval(MENU, (d) => d.open);

/** The enabled items of the Files menu, in order (their test ids). */
const enabledItems = (page) =>
  page.$$eval(`${MENU} [role="menuitem"]`, (els) => els.filter((e) => !e.disabled).map((e) => e.dataset.testid));

async function open(name, viewport) {
  const browser = await openBrowser(name, { viewport });
  await browser.page.goto(server.url);
  await waitForApp(browser.page);
  return browser;
}

test('Tab from the page start reaches "Skip to results"; activating it moves focus to the results', async (t) => {
  const browser = await open('keyboard-skip', { width: 1440, height: 900 });
  t.after(() => browser.close());
  const { page, problems } = browser;
  // The page writes the scenario's link to the URL after its first run: the skip link
  // must keep it.
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const hash = await page.evaluate(() => location.hash);

  let f;
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press('Tab');
    f = await focused(page);
    if (/skip to results/i.test(f.text)) break;
  }
  assert.match(f.text, /skip to results/i, `Tab reaches the skip link first: ${JSON.stringify(f)}`);
  // Visible when focused: a real box inside the viewport.
  const box = await page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  assert.ok(box.width > 40 && box.height > 16 && box.y >= 0 && box.y < 900, `the skip link shows: ${JSON.stringify(box)}`);
  await page.screenshot({ path: join(SHOTS, 'keyboard-1440-skip-link.png') });

  await page.keyboard.press('Enter');
  f = await focused(page);
  assert.ok(f.inResults, `focus is on the results: ${JSON.stringify(f)}`);
  const top = await page.$eval('.results', (e) => e.getBoundingClientRect().top);
  assert.ok(top >= -2 && top < 120, `the results are scrolled into view (top ${top})`);
  assert.equal(await page.evaluate(() => location.hash), hash, 'the share link in the URL is kept');
  // The next Tab goes on into the results, not back to the top of the page.
  await page.keyboard.press('Tab');
  assert.ok((await focused(page)).inResults, 'Tab continues inside the results');
  assert.deepEqual(problems, []);
});

test('landmarks: banner, a labelled toolbar region, main, a labelled editor region, contentinfo', async (t) => {
  const browser = await open('keyboard-landmarks', { width: 1440, height: 900 });
  t.after(() => browser.close());
  const { page, problems } = browser;
  assert.equal(await page.locator('main').count(), 1, 'one <main>');
  assert.equal(await page.getByRole('banner').count(), 1, 'a banner');
  assert.equal(await page.getByRole('contentinfo').count(), 1, 'a contentinfo');
  assert.equal(await page.getByRole('region', { name: /scenario controls/i }).count(), 1, 'the toolbar region');
  assert.equal(await page.getByRole('region', { name: /scenario editor/i }).count(), 1, 'the editor region');
  assert.equal(await page.getByRole('region', { name: /^results$/i }).count(), 1, 'the results region');
  assert.equal(await page.locator('main').getByRole('region', { name: /scenario editor/i }).count(), 1, 'the editor is in main');
  assert.deepEqual(problems, []);
});

test('the Files menu is a menu button: keys open and move, Escape and choices return focus, outside clicks close', async (t) => {
  const browser = await open('keyboard-menu', { width: 1440, height: 900 });
  t.after(() => browser.close());
  const { page, problems } = browser;
  const button = page.locator(BUTTON);
  assert.equal(await button.getAttribute('aria-haspopup'), 'menu');
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator(`${MENU} [role="menu"]`).getAttribute('aria-label'), 'Files');

  // Enter opens and focuses the first item.
  await button.focus();
  await page.keyboard.press('Enter');
  assert.equal(await isOpen(page), true, 'Enter opens the menu');
  await page.waitForFunction((sel) => document.querySelector(sel).getAttribute('aria-expanded') === 'true', BUTTON);
  const items = await enabledItems(page);
  assert.ok(items.length >= 6, `menu items: ${items}`);
  assert.equal((await focused(page)).testid, items[0], 'the first item has the focus');
  await page.screenshot({ path: join(SHOTS, 'keyboard-1440-menu-open.png') });

  // Arrows, Home and End move among the enabled items (wrapping at the ends).
  await page.keyboard.press('ArrowDown');
  assert.equal((await focused(page)).testid, items[1], 'ArrowDown: the next item');
  await page.keyboard.press('End');
  assert.equal((await focused(page)).testid, items.at(-1), 'End: the last item');
  await page.keyboard.press('ArrowDown');
  assert.equal((await focused(page)).testid, items[0], 'ArrowDown on the last item wraps to the first');
  await page.keyboard.press('ArrowUp');
  assert.equal((await focused(page)).testid, items.at(-1), 'ArrowUp on the first item wraps to the last');
  await page.keyboard.press('Home');
  assert.equal((await focused(page)).testid, items[0], 'Home: the first item');

  // Escape closes and gives the focus back to the button.
  await page.keyboard.press('Escape');
  assert.equal(await isOpen(page), false, 'Escape closes the menu');
  assert.ok((await focused(page)).isButton, 'Escape returns the focus to the button');
  await page.waitForFunction((sel) => document.querySelector(sel).getAttribute('aria-expanded') === 'false', BUTTON);

  // ArrowDown and Space open it too.
  await page.keyboard.press('ArrowDown');
  assert.equal(await isOpen(page), true, 'ArrowDown opens the menu');
  assert.equal((await focused(page)).testid, items[0]);
  await page.keyboard.press('Escape');
  await page.keyboard.press(' ');
  assert.equal(await isOpen(page), true, 'Space opens the menu');
  assert.equal((await focused(page)).testid, items[0]);

  // Choosing an item (Enter on "Export scenario") does it, closes and returns the focus.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.match(dl.suggestedFilename(), /\.json$/);
  assert.equal(await isOpen(page), false, 'a choice closes the menu');
  assert.ok((await focused(page)).isButton, `a choice returns the focus to the button: ${JSON.stringify(await focused(page))}`);

  // Tab out of an open menu closes it.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.equal(await isOpen(page), false, 'Tab closes the menu');

  // A mouse click outside closes it; clicks on the button still toggle it.
  await button.click();
  assert.equal(await isOpen(page), true, 'a click on the button opens the menu');
  await page.locator('.site-header h1').click();
  assert.equal(await isOpen(page), false, 'a click outside closes the menu');
  await button.click();
  await button.click();
  assert.equal(await isOpen(page), false, 'a second click on the button closes it');
  assert.deepEqual(problems, []);
});

test('at 390x844 the Files menu stays in the viewport and the results start near the top, the editor folded', async (t) => {
  const browser = await open('keyboard-390', { width: 390, height: 844 });
  t.after(() => browser.close());
  const { page, problems } = browser;

  await page.locator(BUTTON).click();
  const inside = async (when) => {
    const panel = await page.locator(`${MENU} [role="menu"]`).boundingBox();
    assert.ok(panel.x >= 0 && panel.x + panel.width <= 390, `${when}, the menu is inside the viewport: ${JSON.stringify(panel)}`);
    const button = await page.locator(BUTTON).boundingBox();
    assert.ok(panel.y >= button.y + button.height, `${when}, the menu is under its button: ${JSON.stringify({ panel, button })}`);
  };
  await inside('opened');
  // The buttons before Files move when the link's length arrives (from the worker) or
  // changes; the open menu stays inside whatever moves them.
  await page.waitForFunction(() => /characters/.test(document.querySelector('[data-testid="link-length"]')?.textContent ?? ''));
  await inside('once the link length is shown');
  await page.$eval('[data-testid="link-length"]', (e) => {
    e.textContent = '99,999 characters, a longer note than any link gets';
  });
  await inside('after the bar reflows');
  await page.screenshot({ path: join(SHOTS, 'keyboard-390-menu-open.png') });
  await page.keyboard.press('Escape');
  assert.equal(await isOpen(page), false);

  const top = await page.$eval('.results', (e) => e.getBoundingClientRect().top + window.scrollY);
  assert.ok(top < 1500, `the results start at ${Math.round(top)} px`);
  // The editor is folded under "Edit scenario" and opens on demand.
  const fold = page.getByRole('button', { name: 'Edit scenario' });
  assert.equal(await fold.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('.editor').isVisible(), false, 'the editor is folded');
  await page.screenshot({ path: join(SHOTS, 'keyboard-390-top.png') });
  await fold.click();
  assert.equal(await fold.getAttribute('aria-expanded'), 'true');
  assert.equal(await page.locator('.editor').isVisible(), true, 'the editor unfolds');
  await page.screenshot({ path: join(SHOTS, 'keyboard-390-editor-open.png') });
  await fold.click();
  assert.equal(await page.locator('.editor').isVisible(), false, 'and folds again');

  // The page never scrolls sideways.
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `no horizontal scroll (${sideways} px too wide)`);
  assert.deepEqual(problems, []);
});

test('at 1440 and 1024 the editor is beside or above the results, never folded; screenshots', async (t) => {
  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ]) {
    const browser = await open(`keyboard-${width}`, { width, height });
    try {
      const { page, problems } = browser;
      assert.equal(await page.getByRole('button', { name: 'Edit scenario' }).isVisible(), false, `${width}: no fold`);
      assert.equal(await page.locator('.editor').isVisible(), true, `${width}: the editor shows`);
      const editor = await page.locator('.editor-column').boundingBox();
      const results = await page.locator('.results').boundingBox();
      assert.ok(editor.x + editor.width <= results.x + 1, `${width}: editor left of the results`);
      await page.screenshot({ path: join(SHOTS, `keyboard-${width}-top.png`) });
      await page.locator(BUTTON).click();
      const panel = await page.locator(`${MENU} [role="menu"]`).boundingBox();
      assert.ok(panel.x >= 0 && panel.x + panel.width <= width, `${width}: the menu is inside the viewport`);
      await page.screenshot({ path: join(SHOTS, `keyboard-${width}-menu-open.png`) });
      await page.keyboard.press('Escape');
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  }
  void t;
});

test('the Philly preset at 1440x900 and 390x844: the skip link still comes first, the results near the top', async (t) => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    const browser = await open(`keyboard-philly-${width}`, { width, height });
    try {
      const { page, problems } = browser;
      const before = await page.$eval('table.summary tbody', (b) => b.textContent);
      await page.getByTestId('preset-select').selectOption('philly');
      await page.waitForFunction((p) => document.querySelector('table.summary tbody')?.textContent !== p, before, {
        timeout: 60_000,
      });
      await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 60_000 });
      const top = await page.$eval('.results', (e) => e.getBoundingClientRect().top + window.scrollY);
      if (width <= 700) assert.ok(top < 1500, `${width}: the results start at ${Math.round(top)} px`);
      await page.screenshot({ path: join(SHOTS, `keyboard-philly-${width}-top.png`) });
      // From the page start (the preset picker had the focus), Tab reaches the skip link first.
      await page.evaluate(() => document.activeElement?.blur());
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('body').focus();
      await page.keyboard.press('Tab');
      let f = await focused(page);
      if (!/skip to results/i.test(f.text)) {
        await page.keyboard.press('Tab');
        f = await focused(page);
      }
      assert.match(f.text, /skip to results/i, `${width}: ${JSON.stringify(f)}`);
      await page.keyboard.press('Enter');
      assert.ok((await focused(page)).inResults, `${width}: the skip link moves the focus to the results`);
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  }
  void t;
});
