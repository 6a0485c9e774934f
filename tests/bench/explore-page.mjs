#!/usr/bin/env node
// Issue #30 "the main thread never blocks" with the Explore panel (SPEC 15) on a large
// scenario: the scenario file opened from Files, then the panel opened and filled, a sweep of
// 6 runs (shares[0].borrow_limit 0..100:50, 2 seeds), the panel closed, and a share's borrow
// limit edited. For each step: its time and every main-thread long task (over 50 ms).
//
//   node tests/bench/explore-page.mjs SCENARIO.json
//
// The Philly trace as the scenario: docs/PERFORMANCE.md ("Kueue against AWS", its first
// command) writes it to /tmp/philly-aws.json. QUOTALAB_DIST: another build. TRACE=1 traces
// the opening and the sweep (with a build that keeps names: docs/PERFORMANCE.md) and prints
// each main-thread task over OVER ms (50) with STACKS frames of what made it. UNSET=1 sweeps
// a setting the scenario leaves unset (the Kueue Philly scenario, /tmp/philly-kueue.json).
import { DIST, fillExplore, openBrowser, openExplore, serveDist, waitForApp, waitSweepDone } from '../e2e/helpers.mjs';
import { longTasksSince, traceLongTasks, watchLongTasks } from './probes.mjs';
import { openScenarioFile, waitForResult } from './scenarios.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node tests/bench/explore-page.mjs SCENARIO.json');
  process.exit(64);
}
const server = await serveDist(process.env.QUOTALAB_DIST ?? DIST);
const b = await openBrowser('bench-explore', { viewport: { width: 1440, height: 900 } });
const page = b.page;
const now = () => page.evaluate(() => performance.now());
const tasksSince = (t0) => longTasksSince(page, t0);
try {
  await page.addInitScript(watchLongTasks);
  await page.goto(server.url);
  await waitForApp(page);
  await waitForResult(page, 'AWS walkthrough');
  await openScenarioFile(page, file, 180_000);
  await page.waitForTimeout(2_000);
  let done = await traceLongTasks(page);
  let t0 = await now();
  await openExplore(page);
  if (process.env.UNSET) {
    // A setting the scenario leaves unset (a Kueue scenario's borrowing limit): Run writes
    // it first, beside the jobs.
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="explore-field"] option')].some((o) => /unset/.test(o.textContent)), null, { timeout: 30_000 });
    const path = await page.evaluate(() => [...document.querySelectorAll('[data-testid="explore-field"] option')].find((o) => /unset/.test(o.textContent)).value);
    await fillExplore(page, { path, from: 0, to: 100, step: 50, seeds: 2 });
  } else {
    await fillExplore(page, { path: 'shares[0].borrow_limit', from: 0, to: 100, step: 50, seeds: 2 });
  }
  let t1 = await now();
  await done();
  console.log(`panel opened and filled: ${Math.round(t1 - t0)} ms; long tasks (start+ms): ${(await tasksSince(t0)).join(' ') || 'none'}`);
  done = await traceLongTasks(page);
  t0 = await now();
  await page.getByTestId('explore-run').click();
  await waitSweepDone(page, 6, 180_000);
  t1 = await now();
  await page.waitForTimeout(1_000);
  await done();
  console.log(`a sweep of 6 runs: ${Math.round(t1 - t0)} ms; long tasks (start+ms): ${(await tasksSince(t0)).join(' ') || 'none'}`);
  await page.getByTestId('explore-close').click();
  await page.waitForTimeout(1_500);
  t0 = await now();
  // (An AWS share's borrow limit; a Kueue scenario has none to edit.)
  const edited = await page.evaluate(() => {
    const f = document.querySelector('[data-testid="share-borrow-limit"]');
    if (!f) return false;
    const el = f.tagName === 'INPUT' ? f : f.querySelector('input');
    el.value = el.value === '50' ? '60' : '50';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return true;
  });
  if (edited) {
    await page.waitForTimeout(3_000);
    console.log(`an edit with the panel closed (3 s): long tasks (start+ms): ${(await tasksSince(t0)).join(' ') || 'none'}`);
  }
  if (b.problems.length) console.log(`page problems: ${b.problems.slice(0, 3).join('; ')}`);
} finally {
  await b.close();
  await server.close();
}
