#!/usr/bin/env node
// Issue #30 "the main thread never blocks" while a report is made: a large scenario file
// opened from Files, then Files -> "Export report (HTML)" (made by the engine worker, SPEC 14),
// until the download arrives. For each round it prints the time from the click to the
// download, the report's size, and every main-thread long task (over 50 ms) from the click
// until 2 s after the download.
//
//   node tests/bench/report-page.mjs SCENARIO.json [rounds, default 2]
//
// The Philly trace as the scenario: docs/PERFORMANCE.md ("Kueue against AWS", its first
// command) writes it to /tmp/philly-aws.json. QUOTALAB_DIST: another build. TRACE=1 traces the
// first round's export and prints each main-thread task over 50 ms (OVER=ms) with what it is
// made of (STACKS=N: its heaviest stacks, with a build that keeps names). ITEM=testid clicks
// another item of the Files menu that downloads (export-jobs-csv, export-result-json, ...).
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { longTasksSince, traceLongTasks, watchLongTasks } from './probes.mjs';
import { openScenarioFile, waitForResult } from './scenarios.mjs';

const file = process.argv[2];
const rounds = Number(process.argv[3] ?? 2);
const item = process.env.ITEM ?? 'export-report-html';
if (!file) {
  console.error('usage: node tests/bench/report-page.mjs SCENARIO.json [rounds]');
  process.exit(64);
}
const server = await serveDist(process.env.QUOTALAB_DIST ?? DIST);
try {
  for (let k = 0; k < rounds; k++) {
    const b = await openBrowser(`bench-report-${k}`, { viewport: { width: 1440, height: 900 } });
    const page = b.page;
    await page.addInitScript(watchLongTasks);
    await page.goto(server.url);
    await waitForApp(page);
    await waitForResult(page, 'AWS walkthrough');
    await openScenarioFile(page, file, 180_000);
    await page.waitForTimeout(2_000);
    await page.locator('[data-testid="files-menu"] > summary').click();
    // (The first round traced, with TRACE.)
    const traced = k === 0 ? await traceLongTasks(page) : async () => {};
    const t0 = await page.evaluate(() => performance.now());
    const [dl] = await Promise.all([
      page.waitForEvent('download', { timeout: 180_000 }),
      page.locator(`[data-testid="${item}"]`).click(),
    ]);
    const t1 = await page.evaluate(() => performance.now());
    const out = join(tmpdir(), `quotalab-bench-report-${k}.html`);
    await dl.saveAs(out);
    await page.waitForTimeout(2_000);
    await traced();
    const tasks = await longTasksSince(page, t0);
    const mb = ((await stat(out)).size / 2 ** 20).toFixed(1);
    console.log(
      `round ${k + 1}: ${item} clicked -> downloaded ${(t1 - t0).toFixed(0)} ms (${mb} MB); long tasks (start+ms): ${tasks.join(' ') || 'none'}`,
    );
    if (b.problems.length) console.log(`  page problems: ${b.problems.slice(0, 3).join('; ')}`);
    await b.close();
  }
} finally {
  await server.close();
}
