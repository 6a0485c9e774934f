#!/usr/bin/env node
// Issue #30 on a run longer than the page keeps (default: the Philly trace imported by the
// CLI, as docs/PERFORMANCE.md shows): a scenario file opened from Files, the timeline
// scrolled into view, then the time until the engine worker's layout of the whole run is
// drawn, the time from a click at 80% of the timeline (after the kept events) to that moment
// in the "state at t" panel, and every main-thread long task (over 50 ms) from the scroll on.
//
//   QUOTALAB_DIST=/tmp/dist node tests/bench/timeline-whole.mjs [scenario.json] [runs, default 1]
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { watchLongTasks } from './probes.mjs';
import { openScenarioFile } from './scenarios.mjs';

const dist = process.env.QUOTALAB_DIST ?? DIST;
const file = process.argv[2] ?? '/tmp/philly-aws.json';
const runs = Number(process.argv[3] ?? 1);
const server = await serveDist(dist);
for (let run = 1; run <= runs; run++) {
  const { page, close } = await openBrowser('timeline-whole', { viewport: { width: 1440, height: 1000 } });
  await page.addInitScript(watchLongTasks);
  await page.goto(server.url);
  await waitForApp(page);
  await openScenarioFile(page, file);
  await page.waitForTimeout(3000);
  const t0 = await page.evaluate(() => {
    window.__t0 = performance.now();
    document.querySelector('[data-testid="chart-timeline"]').scrollIntoView();
    return window.__t0;
  });
  await page.locator('[data-testid=timeline-capped][data-timeline=whole]').waitFor({ timeout: 120000 });
  const drawn = (await page.evaluate(() => performance.now())) - t0;
  const canvas = page.locator('[data-testid="chart-timeline"] canvas');
  const box = await canvas.boundingBox();
  const t1 = await page.evaluate(() => performance.now());
  await canvas.click({ position: { x: box.width * 0.8, y: box.height / 2 } });
  // The moment from the whole run, or (after the events the worker lays out, a run of more
  // than 1,000,000 events) the panel's word that it is not known.
  await page.locator('[data-testid=state-from-whole-run], [data-testid=state-after-log]').first().waitFor({ timeout: 60000 });
  const moment = (await page.evaluate(() => performance.now())) - t1;
  const known = (await page.getByTestId('state-from-whole-run').count()) > 0 ? 'read from the whole run' : 'not known (after the events laid out)';
  const long = await page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 1000));
    const t0 = window.__t0;
    return window.__longtasks
      .filter(([s, d]) => s + d > t0)
      .map(([s, d]) => `${Math.round(s - t0)}+${Math.round(d)}`)
      .join(' ');
  });
  console.log(
    `run ${run}: whole timeline drawn ${Math.round(drawn)} ms after the scroll; a later moment ${known} ${Math.round(moment)} ms after the click; long tasks from the scroll (start+ms): ${long || 'none'}`,
  );
  await close();
}
await server.close?.();
process.exit(0);
