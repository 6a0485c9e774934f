// Generated scenarios for the browser benchmark and the performance tests: the engine
// benchmark's mix (crates/engine/benches/engine.rs `generated`), scaled to any number of jobs.
// Shares alternate LEND_AND_BORROW (borrow limit 200%), LEND and RESERVE, with in-share
// preemption on every other one; Poisson arrivals near each share's entitlement, lognormal
// work, checkpoints: reclaims, preemptions and queues all happen.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../e2e/helpers.mjs';

const T = 'ml.g5.xlarge';

/** A workloads scenario of `jobs` jobs over `shares` shares (10 instances each). */
export function generated(jobs, { shares = 10, name = `generated ${jobs} jobs`, borrowLimit = 200, seed = 1 } = {}) {
  const strategies = ['LEND_AND_BORROW', 'LEND', 'RESERVE', 'LEND_AND_BORROW'];
  const per = Math.floor(jobs / shares);
  const list = [];
  const workloads = [];
  for (let i = 0; i < shares; i++) {
    const share = `team${String(i).padStart(2, '0')}`;
    const s = { name: share, limits: { [T]: 10 }, strategy: strategies[i % 4], in_share_preemption: i % 2 === 0 };
    if (i % 4 === 0 || i % 4 === 3) s.borrow_limit = borrowLimit;
    list.push(s);
    workloads.push({
      share,
      // The last share takes the remainder, so the total is exactly `jobs`.
      count: i === shares - 1 ? jobs - per * (shares - 1) : per,
      arrival: { poisson_per_hour: 9.5 },
      instance_type: T,
      instances: { choice: [[1, 8], [2, 1], [4, 1]] },
      work_s: { lognormal: { median: 2400, sigma: 1.0 } },
      priority: { choice: [[0, 3], [1, 1], [5, 1]] },
      startup_s: 60,
      checkpoint: { interval_s: 1800, cost_s: 30, restore_s: 60 },
      checkpoint_on_preempt: true,
    });
  }
  return {
    format: 'quotalab/v1',
    name,
    seed,
    capacity: { [T]: 10 * shares },
    queue: { preemption_grace_s: 60 },
    shares: list,
    workloads,
  };
}

/**
 * Before the 1,000,000-job paste: opens the JSON editor's section and counts the progress
 * bar's updates from now on (`window.__progress`).
 */
export async function readyForMillion(page) {
  await page.evaluate(() => {
    window.__progress = 0;
    const bar = () => document.querySelector('progress.run-bar');
    new MutationObserver(() => { if (bar()) window.__progress += 1; }).observe(document.body, { attributes: true, subtree: true, attributeFilter: ['value'] });
    const d = document.querySelector('[data-testid="json-section"]');
    if (d) d.open = true;
  });
}

/** The whole Philly trace (82,247 jobs; ../shared/traces/README.md). */
export const PHILLY_CSV = join(ROOT, '..', 'shared', 'traces', 'philly-adaptdl.csv');

/**
 * A newcomer's import of the whole Philly CSV, up to its Import button: the page's trace form
 * opened, the file chosen, its preview shown, share column "cluster", the 7 largest shares,
 * no job limit. Returns the name of the scenario the Import button makes.
 */
export async function fillPhillyImport(page) {
  await page.locator('[data-testid="trace-open"]').click();
  await page.setInputFiles('[data-testid="trace-file"]', PHILLY_CSV);
  await page.locator('[data-testid="trace-preview"]').waitFor({ timeout: 60_000 });
  await page.locator('select[data-testid="share"]').selectOption('cluster');
  await page.locator('[data-testid="top-shares"]').fill('7');
  await page.locator('[data-testid="limit-jobs"]').fill('');
  return 'trace philly-adaptdl.csv';
}

/** Sets the scenario text through the page's JSON editor, as typing would. */
export async function setScenarioText(page, text) {
  await page.evaluate((text) => {
    const area = document.querySelector('[data-testid="json-editor"], textarea.json-editor');
    if (!area) throw new Error('no JSON editor on the page');
    area.value = text;
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

/** The run counters and timings the page exposes (src/state/runner.rs). */
export async function runStats(page) {
  return page.evaluate(() => {
    const stats = document.querySelector('[data-testid="run-stats"]');
    const bar = document.querySelector('[data-testid="run-progress"]');
    const n = (x) => (x === undefined ? undefined : Number(x));
    return {
      seq: n(stats?.dataset.runSeq),
      ms: n(stats?.dataset.runMs),
      state: bar?.dataset.state,
      started: n(bar?.dataset.runsStarted),
      finished: n(bar?.dataset.runsFinished),
      cancelled: n(bar?.dataset.runsCancelled),
      superseded: n(bar?.dataset.runsSuperseded),
      where: bar?.dataset.runWhere,
      computeMs: n(bar?.dataset.runComputeMs),
      decodeMs: n(bar?.dataset.runDecodeMs),
      // Worker phases of the last worker run: validate, simulate, digest, encode (ms).
      phases: bar?.dataset.runPhasesMs?.split(',').map(Number),
      // Messaging of the last worker run: page -> worker start, worker post -> page (ms).
      hops: bar?.dataset.runHopsMs?.split(',').map(Number),
      name: bar?.dataset.runName,
      // The last run simulated nothing: the engine worker relabelled its previous result.
      reused: bar?.dataset.runReused === 'true',
    };
  });
}

/** Waits until the shown result is of the scenario named `name` and no run is in flight. */
export async function waitForResult(page, name, timeout = 60_000) {
  await page.waitForFunction(
    (name) => {
      const bar = document.querySelector('[data-testid="run-progress"]');
      return bar && bar.dataset.runName === name && bar.dataset.state === 'idle';
    },
    name,
    { timeout, polling: 20 },
  );
}

/**
 * Opens the scenario file at `path` from the Files menu's input, as a person picks it, and
 * waits for its result (the scenario's `name`) to be drawn. Returns that name.
 */
export async function openScenarioFile(page, path, timeout = 120_000) {
  const name = JSON.parse(readFileSync(path, 'utf8')).name;
  await page.setInputFiles('[data-testid="import-scenario-input"]', path);
  await waitForResult(page, name, timeout);
  return name;
}

/**
 * Drags a borrow-limit slider (0 to 500 %) as a person would: presses on the thumb at `from`
 * %, moves right in 40 steps of 5 % every 50 ms (about two seconds), releases. Returns the
 * slider's final value.
 */
export async function dragBorrowSlider(page, slider, from = 100) {
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  const xAt = (pct) => box.x + 8 + ((box.width - 16) * pct) / 500;
  await page.mouse.move(xAt(from), y);
  await page.mouse.down();
  for (let i = 1; i <= 40; i++) {
    await page.mouse.move(xAt(from + 5 * i), y);
    await page.waitForTimeout(50);
  }
  await page.mouse.up();
  return Number(await slider.inputValue());
}
