// The interruption contract (SPEC 14) as a person uses it: pick "Recovery is not free", read
// the cards (each share's four answers, its agreement beside them), write an agreement's
// owner in the editor, reload the page's link and find it kept. Screenshot in
// target/e2e/contract-cards.png. QUOTALAB_DIST: another build directory (default dist/).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SHOTS, openBrowser, serveDist, waitForApp, waitForLink } from './helpers.mjs';

let server;
before(async () => {
  server = await serveDist(process.env.QUOTALAB_DIST);
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await server?.close();
});

const card = (page, share) => page.locator(`[data-testid="contract-card"][data-share="${share}"]`);

/** The value of the row `label` of question `q` in `share`'s card. */
const answer = (page, share, q, label) =>
  card(page, share)
    .locator(`[data-question="${q}"] dl`)
    .evaluate(
      (dl, label) => {
        const dts = [...dl.querySelectorAll('dt')];
        const i = dts.findIndex((d) => d.textContent.trim() === label);
        return i < 0 ? null : dl.querySelectorAll('dd')[i].textContent.trim();
      },
      label,
    );

async function waitForCards(page, n) {
  await page.waitForFunction(
    (n) => {
      const cards = document.querySelectorAll('[data-testid="contract-card"]');
      return cards.length === n && [...cards].every((c) => c.dataset.forecast === 'ready');
    },
    n,
    { timeout: 60_000 },
  );
}

test('Recovery is not free: the cards, an agreement edited and kept in the link', async (t) => {
  const browser = await openBrowser('contract', { viewport: { width: 1440, height: 1000 } });
  t.after(() => browser.close());
  const { page, problems } = browser;
  await page.goto(server.url);
  await waitForApp(page);

  await page.getByTestId('preset-select').selectOption('recovery');
  await waitForCards(page, 3);
  const titles = await card(page, 'flaky').locator('h4').allInnerTexts();
  assert.deepEqual(titles, [
    'Can it recover?',
    'Who answers for a failure?',
    'Does the forecast assume continuous access?',
    'What happens on repeated yields?',
  ]);
  assert.equal(await answer(page, 'flaky', 'recover', 'Restores'), '10 restores, 4 failed');
  assert.equal(await answer(page, 'steady', 'recover', 'Restores'), '16 restores, 0 failed');
  assert.equal(
    await answer(page, 'flaky', 'responsible', 'Owner'),
    'no agreement: nobody is named',
  );
  assert.equal(
    await answer(page, 'steady', 'responsible', 'Owner'),
    'Training platform on-call',
  );
  const p90 = await answer(page, 'flaky', 'forecast', 'Completion p90');
  assert.match(p90, /^.+ on its allocation alone, .+ as given$/);
  await page.getByTestId('contract-view').screenshot({ path: join(SHOTS, 'contract-cards.png') });

  // Name flaky's owner in the editor (its agreement group is folded: none yet).
  const row = page.locator('[data-testid="share-row"][aria-label$=": flaky"]');
  const group = row.getByTestId('agreement-fields');
  assert.equal(await group.getAttribute('open'), null);
  await group.locator('summary').click();
  const owner = 'Flaky team <b>lead</b>';
  await group.getByLabel('Owner', { exact: true }).fill(owner);
  await page.waitForFunction(
    (o) =>
      document
        .querySelector('[data-testid="contract-card"][data-share="flaky"] [data-question="responsible"] dd')
        ?.textContent.trim() === o,
    owner,
    { timeout: 30_000 },
  );
  assert.equal(await card(page, 'flaky').locator('b').count(), 0, 'the owner is text, not markup');

  // The link follows the scenario (written a moment after the edit); reloading it keeps the owner.
  await waitForLink(page, (s) => s.shares.some((sh) => sh.name === 'flaky' && sh.agreement?.owner === owner));
  const link = page.url();
  await page.goto('about:blank');
  await page.goto(link);
  await waitForApp(page);
  await waitForCards(page, 3);
  assert.equal(await answer(page, 'flaky', 'responsible', 'Owner'), owner);
  const kept = page
    .locator('[data-testid="share-row"][aria-label$=": flaky"]')
    .getByTestId('agreement-fields');
  assert.equal(await kept.getAttribute('open'), '', 'an agreement opens its group');
  assert.equal(await kept.getByLabel('Owner', { exact: true }).inputValue(), owner);
  assert.deepEqual(problems, []);
});
