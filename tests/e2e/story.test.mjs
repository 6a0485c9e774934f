// Story mode end to end: the first screen's summary and "Take the tour", every shipped story
// taken from start to end by keyboard (a screenshot of each step under target/e2e/stories/),
// the story link (`#story=ID&step=N`, unknown stories and steps), an edit to try, and an
// axe-core check (no serious or critical violation) of the main page and of story mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, SHOTS, openBrowser, serveDist, waitForApp, waitForWorker } from './helpers.mjs';

const STORY_DIR = join(ROOT, 'www', 'stories');
const STORY_SHOTS = join(SHOTS, 'stories');

async function stories() {
  const files = (await readdir(STORY_DIR)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(STORY_DIR, f), 'utf8'))));
}

/** Injects axe-core (evaluated over the protocol: the page's CSP forbids inline scripts). */
async function axeViolations(page) {
  const source = await readFile(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')})`);
}

async function narration(page) {
  return page.locator('[data-testid="story-narration"]').innerText();
}

test('the first screen says what this is and passes axe', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-first-screen');
  try {
    await page.goto(server.url);
    await waitForApp(page);
    const summary = await page.locator('[data-testid="scenario-summary"]').innerText();
    assert.match(summary, /^3 teams share 3 ml\.g5\.xlarge: background lends and borrows up to 200%, medium only lends, protected keeps its one instance\./);
    assert.equal(await page.locator('[data-testid="take-tour"]').count(), 1);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

test('every story from start to end by keyboard, a screenshot per step', async () => {
  await mkdir(STORY_SHOTS, { recursive: true });
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-keyboard', { viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(server.url);
    await waitForApp(page);
    const all = await stories();
    assert.ok(all.length >= 4, 'the shipped stories');
    for (const story of all) {
      const opener = story.id === 'walkthrough'
        ? '[data-testid="take-tour"]'
        : `[data-testid="story-start"][data-story="${story.id}"]`;
      await page.focus(opener);
      await page.keyboard.press('Enter');
      for (let i = 0; i < story.steps.length; i++) {
        const step = story.steps[i];
        await page.waitForFunction(
          ([title, n]) => {
            const t = document.querySelector('[data-testid="story-narration"]')?.textContent ?? '';
            return t.includes(title) && t.includes(`step ${n} of`);
          },
          [step.title, i + 1],
          { timeout: 30_000 },
        );
        // The highlights land after the run and the redraw.
        if (step.highlight?.length) {
          await page.waitForSelector('.story-hl-label[data-story-label]', { timeout: 30_000 });
        }
        await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 60_000 });
        await page.waitForTimeout(300);
        const text = await narration(page);
        assert.ok(text.includes(step.text), `${story.id} step ${i + 1} shows its text`);
        // The link follows the step (after the URL sync's pause).
        const part = `story=${story.id}&step=${i + 1}`;
        await page.waitForFunction((p) => location.hash.includes(p), part, { timeout: 10_000 });
        const labels = await page.locator('.story-hl-label').evaluateAll((els) => els.map((e) => e.getAttribute('data-story-label')));
        assert.ok(labels.length >= Math.min(1, step.highlight?.length ?? 0), `${story.id} step ${i + 1} highlights something`);
        // Not colour alone: each outlined element carries a text label.
        for (const l of labels) assert.ok(l && l.length > 2);
        // No label is cut off by a box that scrolls (issue #34: "① the cohort tree" inside
        // the tree's sideways-scrolling box). A log row's label is inside the log by design.
        const clipped = await page.evaluate(() => [...document.querySelectorAll('.story-hl-label:not(td)')].flatMap((el) => {
          const top = el.getBoundingClientRect().top + parseFloat(getComputedStyle(el, '::before').top);
          const boxes = [];
          // The element's own scrolling clips its label too.
          for (let a = el; a; a = a.parentElement) {
            const cs = getComputedStyle(a);
            if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
            if (top < a.getBoundingClientRect().top - 0.5) boxes.push(`${el.dataset.storyLabel} cut by ${a.className}`);
          }
          return boxes;
        }));
        assert.deepEqual(clipped, [], `${story.id} step ${i + 1}: labels in full`);
        await page.screenshot({ path: join(STORY_SHOTS, `${story.id}-${i + 1}.png`) });
        if (i + 1 < story.steps.length) await page.keyboard.press('ArrowRight');
      }
      // Back by keyboard, then Finish: the card closes, the scenario stays.
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((n) => document.querySelector('[data-testid="story-narration"]')?.textContent.includes(`step ${n} of`), story.steps.length - 1);
      await page.keyboard.press('ArrowRight');
      await page.focus('[data-testid="story-finish"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.story-card.open', { state: 'detached', timeout: 5_000 });
      assert.equal(await page.locator('.story-hl').count(), 0, 'leaving clears the highlights');
    }
    await waitForWorker(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

test('story links, unknown stories and steps, an edit to try, axe in story mode', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-link');
  try {
    await page.goto(`${server.url}#story=walkthrough&step=2`);
    await waitForApp(page);
    await page.waitForSelector('.story-card.open');
    assert.match(await narration(page), /step 2 of 3/);
    assert.match(await narration(page), /The lender returns and reclaims/);
    await page.waitForSelector('.story-hl');
    assert.deepEqual(await axeViolations(page), []);
    // The cursor moved to 1:00: the state-at panel says so.
    assert.match(await page.locator('[data-testid="state-at"]').textContent(), /State at 1 min/);
    // The edit to try, by keyboard: the link now carries the edited scenario and the story.
    await page.focus('[data-testid="story-try"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="story-try-done"]');
    await page.waitForFunction(() => location.hash.startsWith('#s=') && location.hash.includes('&story=walkthrough&step=2'), null, { timeout: 10_000 });
    // Leave: the edited scenario stays (medium is RESERVE now).
    await page.focus('[data-testid="story-leave"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.story-card.open', { state: 'detached' });
    // Teams with the same rule are named together.
    assert.match(await page.locator('[data-testid="scenario-summary"]').innerText(), /medium and protected keep 1 instance each/);
    await page.waitForFunction(() => !location.hash.includes('story='), null, { timeout: 10_000 });
    await waitForWorker(page);

    await page.goto(`${server.url}#story=nope`);
    await page.reload();
    await waitForApp(page);
    const notice = page.locator('[data-testid="share-notice"]').filter({ hasText: 'nope' });
    await notice.first().waitFor({ timeout: 10_000 });
    assert.match(await notice.first().innerText(), /does not have/);
    assert.equal(await page.locator('.story-card.open').count(), 0);
    await waitForWorker(page);

    await page.goto(`${server.url}#story=walkthrough&step=9`);
    await page.reload();
    await waitForApp(page);
    await page.waitForSelector('.story-card.open');
    assert.match(await narration(page), /step 1 of 3/);
    assert.match(await page.locator('body').innerText(), /step 9 does not exist/);
    await waitForWorker(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

// Issue #34.1: Escape leaves a story; after a "Try it" edit, Next narrates the story's own
// scenario (put back, undoably); the "Look at" places are buttons that scroll to each.
test('a story after a try: Next puts the story scenario back, Escape leaves', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-escape');
  try {
    await page.goto(`${server.url}#story=walkthrough&step=2`);
    await waitForApp(page);
    await page.waitForSelector('.story-card.open');
    assert.match(await narration(page), /^Story: The AWS walkthrough/);
    await page.locator('[data-testid="story-try"]').click();
    await page.waitForSelector('[data-testid="story-try-done"]');
    await page.waitForFunction(() => /medium and protected keep 1 instance each/.test(document.querySelector('[data-testid="scenario-summary"]')?.textContent ?? ''));
    await page.locator('[data-testid="story-next"]').click();
    assert.match(await narration(page), /step 3 of 3/);
    await page.waitForFunction(() => !/medium and protected keep 1 instance each/.test(document.querySelector('[data-testid="scenario-summary"]')?.textContent ?? ''), null, { timeout: 10_000 });
    const looks = page.locator('[data-testid="story-look-at"]');
    assert.ok((await looks.count()) >= 1, 'the places to look at are buttons');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Escape');
    await page.waitForSelector('.story-card.open', { state: 'detached' });
    assert.equal(await page.locator('.story-hl').count(), 0);
    await waitForWorker(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

// Issue #34.1: a story link opens before its results are drawn; once they are, the step's
// first place is scrolled into view, clear of the story card, and kept there while the
// results still draw above it: a3's waiting row in the event log (cohort, step 2) on a phone
// and a wide screen; gambler's job history, below the event log that fills in after it
// (checkpoint, step 3), at 1024 px.
test('a story link scrolls to its first place once the results are drawn', async (t) => {
  const server = await serveDist();
  // Closed even when an assertion fails (an open server keeps the test file running).
  t.after(() => server.close());
  const cases = [
    [390, 'cohort', 2, '[data-testid="event-row"]'],
    [1440, 'cohort', 2, '[data-testid="event-row"]'],
    [1024, 'checkpoint', 3, '[data-testid="job-history"]'],
  ];
  for (const [width, story, step, place] of cases) {
    const { page, problems, close } = await openBrowser(`story-link-scroll-${width}-${story}`, { viewport: { width, height: 900 } });
    try {
      await page.goto(`${server.url}#story=${story}&step=${step}`);
      await waitForApp(page);
      await page.waitForSelector('.story-card.open');
      const inView = () => page.evaluate((place) => {
        const el = document.querySelector('.story-hl-label[data-story-label^="①"]');
        const card = document.querySelector('.story-card.open');
        if (!el || !card || !el.closest(place)) return false;
        const r = el.getBoundingClientRect();
        const c = card.getBoundingClientRect();
        const under = r.left < c.right && r.right > c.left && r.top > c.top;
        return r.top >= 0 && r.top <= innerHeight - 80 && !under;
      }, place);
      await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 30_000 });
      // After the last of the step's attempts (3 s): where the reader is left.
      await page.waitForTimeout(3500);
      assert.ok(await inView(), `${story} step ${step} at ${width} px: its first place is in view`);
      await waitForWorker(page);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

test('with two columns the story card sits over the editor, never over the results it points at', async (t) => {
  const server = await serveDist();
  // Closed even when an assertion fails (an open server keeps the test file running).
  t.after(() => server.close());
  for (const width of [1024, 1440]) {
    const { page, problems, close } = await openBrowser(`story-card-column-${width}`, { viewport: { width, height: 900 } });
    try {
      await page.goto(`${server.url}#story=checkpoint&step=3`);
      await waitForApp(page);
      await page.waitForSelector('.story-card.open');
      await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 30_000 });
      const { card, results } = await page.evaluate(() => ({
        card: document.querySelector('.story-card.open').getBoundingClientRect().toJSON(),
        results: document.querySelector('.results').getBoundingClientRect().toJSON(),
      }));
      assert.ok(card.right <= results.left, `at ${width} px the card (right edge ${card.right}) stays left of the results (${results.left})`);
      assert.ok(card.left >= 0, `at ${width} px the card starts in the window`);
      await waitForWorker(page);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

test('a place chosen by the reader stays in view: the step no longer scrolls back to its first place', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-look-second', { viewport: { width: 1440, height: 900 } });
  try {
    await page.goto(`${server.url}#story=walkthrough&step=2`);
    await waitForApp(page);
    await page.waitForSelector('.story-card.open');
    await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 30_000 });
    const looks = page.locator('[data-testid="story-look-at"]');
    assert.ok((await looks.count()) >= 2, 'the step points at two places');
    // At once, while the step still keeps its first place in view (its first 3 s).
    await looks.nth(1).click();
    await page.waitForTimeout(3500);
    const second = await page.evaluate(() => {
      const el = document.querySelector('.story-hl-label[data-story-label^="②"]');
      const r = el?.getBoundingClientRect();
      return r && { top: r.top, bottom: r.bottom, h: innerHeight };
    });
    assert.ok(second && second.top < second.h && second.bottom > 0, `② is in view 3.5 s after it was chosen: ${JSON.stringify(second)}`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

// Issue #34 (fresh-eyes walk): Back restores what the earlier step showed. The walkthrough's
// step 1 opens bg-p2's history, step 2 leaves it open, step 3 opens bg-p1's; Back from
// step 3 shows bg-p2's again (it left bg-p1's open), and the allocation story's first
// steps, before any job, close the history a later step opened.
test('Back shows the job history the earlier step showed', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-back-history', { viewport: { width: 1440, height: 900 } });
  const historyOf = () => page.evaluate(() => {
    const h = document.querySelector('[data-testid="job-history"] h3');
    return h ? h.textContent : null;
  });
  const waitHistory = (pred) => page.waitForFunction(pred, null, { timeout: 10_000 });
  try {
    await page.goto(`${server.url}#story=walkthrough&step=1`);
    await waitForApp(page);
    await page.waitForSelector('.story-card.open');
    await waitHistory(() => /bg-p2/.test(document.querySelector('[data-testid="job-history"] h3')?.textContent ?? ''));
    await page.locator('[data-testid="story-next"]').click();
    await page.locator('[data-testid="story-next"]').click();
    assert.match(await narration(page), /step 3 of 3/);
    await waitHistory(() => /bg-p1/.test(document.querySelector('[data-testid="job-history"] h3')?.textContent ?? ''));
    await page.locator('[data-testid="story-back"]').click();
    assert.match(await narration(page), /step 2 of 3/);
    await waitHistory(() => /bg-p2/.test(document.querySelector('[data-testid="job-history"] h3')?.textContent ?? ''));
    assert.doesNotMatch(await historyOf(), /bg-p1/);

    await waitForWorker(page);
    await page.goto('about:blank');
    await page.goto(`${server.url}#story=allocation&step=3`);
    await waitForApp(page);
    await waitHistory(() => /busy-r2/.test(document.querySelector('[data-testid="job-history"] h3')?.textContent ?? ''));
    await page.locator('[data-testid="story-back"]').click();
    assert.match(await narration(page), /step 2 of 3/);
    await waitHistory(() => !document.querySelector('[data-testid="job-history"]'));
    await waitForWorker(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

// Issue #34 (fresh-eyes walk): on a phone the story card's words ran under its buttons. The
// words scroll in their own box above Back / Next / Leave story; the buttons are in the card.
test('on a 390 px phone the story card keeps its words above its buttons', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-card-390', { viewport: { width: 390, height: 844 } });
  try {
    for (const step of [1, 2, 3]) {
      await page.goto('about:blank');
      await page.goto(`${server.url}#story=walkthrough&step=${step}`);
      await waitForApp(page);
      await page.waitForSelector('.story-card.open');
      await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 30_000 });
      const g = await page.evaluate(() => {
        const r = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
        const body = document.querySelector('.story-body');
        return { card: r('.story-card.open'), body: r('.story-body'), nav: r('.story-nav'), scrolls: body.scrollHeight > body.clientHeight, overflowY: getComputedStyle(body).overflowY };
      });
      assert.ok(g.body.bottom <= g.nav.top + 0.5, `step ${step}: the words end above the buttons: ${JSON.stringify(g)}`);
      assert.ok(g.nav.bottom <= g.card.bottom + 0.5 && g.card.bottom <= 844, `step ${step}: the buttons are in the card, in the window`);
      assert.equal(g.overflowY, 'auto', 'longer words scroll in their box');
      await page.screenshot({ path: join(SHOTS, `story-card-390-${step}.png`) });
      await waitForWorker(page);
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

// Issue #34 (walk): on a phone the words of a long step scroll inside the card to reach its
// "Look at" links; after a click the step's title is still at the top of the card.
test('on a 390 px phone a "Look at" click keeps the step title in view', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-look-390', { viewport: { width: 390, height: 800 } });
  try {
    await page.goto(`${server.url}#story=cohort&step=3`);
    await waitForApp(page);
    await page.waitForSelector('.story-card.open');
    await page.waitForFunction(() => !document.querySelector('.results[data-stale=true]'), null, { timeout: 30_000 });
    const look = page.locator('[data-testid="story-look-at"]:not([disabled])').first();
    await look.click();
    await page.waitForTimeout(500);
    const g = await page.evaluate(() => {
      const r = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
      return { body: r('.story-body'), title: r('#story-step-title'), link: r('[data-testid="story-look-at"]') };
    });
    // The card now grows to fit a step's words (up to 62% of the screen): the link clicked is
    // in the card's view, scrolled to only when the words do not fit.
    assert.ok(g.link.top >= g.body.top - 0.5 && g.link.bottom <= g.body.bottom + 0.5, `the link is in the card's view: ${JSON.stringify(g)}`);
    assert.ok(g.title.top >= g.body.top - 0.5 && g.title.bottom <= g.body.bottom + 0.5, `the title is in the card's view: ${JSON.stringify(g)}`);
    await page.screenshot({ path: join(SHOTS, 'story-look-390.png') });
    await waitForWorker(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

// Issue #34 (fresh-eyes walk): the tour replacing an imported scenario left the import's
// notice ("Imported ... ClusterQueues") above a story about the walkthrough. The story
// clears it; Undo brings back the imported scenario and its notice.
test('the tour clears an import notice; Undo brings the imported scenario back with it', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-after-import', { viewport: { width: 1280, height: 1000 } });
  const KUEUE = join(ROOT, 'crates', 'engine', 'tests', 'config', 'kueue-cohort-example.yaml');
  const shares = () =>
    page.$$eval('[data-testid="summary-row"]', (trs) => trs.map((tr) => tr.getAttribute('data-share')).join());
  try {
    await page.goto(server.url);
    await waitForApp(page);
    await page.locator('[data-testid="files-menu"] > summary').click();
    await page.locator('[data-testid="import-config"]').click();
    await page.locator('[data-testid="config-dialog"]').waitFor();
    await page.setInputFiles('[data-testid="config-file"]', KUEUE);
    await page.locator('[data-testid="config-summary"]').waitFor();
    await page.locator('[data-testid="config-unknown-background"]').selectOption('team-a-cq');
    await page.waitForFunction(() => (document.querySelector('[data-testid="config-warnings"]')?.innerText ?? '').includes('moved to "team-a-cq"'));
    await page.locator('[data-testid="config-apply"]:not([disabled])').click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="summary-row"]')].map((tr) => tr.getAttribute('data-share')).join() === 'team-a-cq,team-b-cq,team-c-cq');
    const notice = page.locator('[data-testid="share-notice"]');
    await notice.waitFor();
    const imported = await notice.innerText();

    await page.locator('[data-testid="take-tour"]').click();
    await page.locator('[data-testid="story-narration"]').waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="summary-row"]')].map((tr) => tr.getAttribute('data-share')).join() === 'background,medium,protected');
    assert.equal(await notice.count(), 0, 'no import notice over the tour\'s scenario');

    await page.locator('[data-testid="undo"]').click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="summary-row"]')].map((tr) => tr.getAttribute('data-share')).join() === 'team-a-cq,team-b-cq,team-c-cq');
    await notice.waitFor();
    assert.equal(await notice.innerText(), imported, 'the imported scenario\'s notice is back');
    assert.equal(await shares(), 'team-a-cq,team-b-cq,team-c-cq');
    // Redo: the tour's scenario again, without the notice.
    await page.locator('[data-testid="redo"]').click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="summary-row"]')].map((tr) => tr.getAttribute('data-share')).join() === 'background,medium,protected');
    assert.equal(await notice.count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});

// Issue #34 (fresh-eyes walk): on a phone the walkthrough's step 3 scrolled its few lines
// inside the card. A step's words fit: the card grows (up to most of the screen) instead.
test('on a phone a step\'s words fit in the story card, with no scroll inside it', async () => {
  const server = await serveDist();
  const { page, problems, close } = await openBrowser('story-card-phone', { viewport: { width: 390, height: 844 } });
  try {
    for (const step of [1, 2, 3]) {
      await page.goto('about:blank');
      await page.goto(`${server.url}#story=walkthrough&step=${step}`);
      await waitForApp(page);
      await page.waitForSelector('.story-card.open');
      const body = await page.evaluate(() => {
        const b = document.querySelector('.story-card.open .story-body');
        return { scroll: b.scrollHeight, client: b.clientHeight };
      });
      assert.ok(body.scroll <= body.client + 1, `step ${step}: the words scroll inside the card (${body.scroll} > ${body.client})`);
      if (step === 3) await page.screenshot({ path: join(SHOTS, 'story-card-phone-step-3.png') });
    }
    await waitForWorker(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.close();
  }
});
