#!/usr/bin/env node
// Issue #30 on the Philly timeline: a scenario file opened from Files (default: the Philly
// trace imported by the CLI, as docs/PERFORMANCE.md shows), the timeline scrolled into view,
// then clicked (the cursor, its card and the "state at t" panel) and stepped 8 times with the
// right arrow key. Prints each step's time (the key's handler and what it runs at once) and
// every main-thread long task (over 50 ms) from the click on.
//
//   QUOTALAB_DIST=/tmp/dist node tests/bench/timeline-click.mjs [scenario.json] [runs, default 1]
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { watchLongTasks } from './probes.mjs';
import { openScenarioFile } from './scenarios.mjs';

const dist = process.env.QUOTALAB_DIST ?? DIST;
const file = process.argv[2] ?? '/tmp/philly-bench.json';
const runs = Number(process.argv[3] ?? 1);
const server = await serveDist(dist);
for (let run = 1; run <= runs; run++) {
  const { page, close } = await openBrowser('timeline-click', { viewport: { width: 1440, height: 1000 } });
  await page.addInitScript(watchLongTasks);
  await page.goto(server.url);
  await waitForApp(page);
  await openScenarioFile(page, file);
  await page.waitForTimeout(3000);
  await page.evaluate(async () => {
    document.querySelector('[data-testid="chart-timeline"]').scrollIntoView();
    await new Promise((r) => setTimeout(r, 3000));
  });
  const canvas = page.locator('[data-testid="chart-timeline"] canvas');
  const box = await canvas.boundingBox();
  await page.evaluate(() => {
    window.__t0 = performance.now();
  });
  await canvas.click({ position: { x: box.width * 0.4, y: box.height / 2 } });
  await page.waitForTimeout(1500);
  await canvas.focus();
  const steps = await page.evaluate(async () => {
    const c = document.querySelector('[data-testid="chart-timeline"] canvas');
    const out = [];
    for (let k = 0; k < 8; k++) {
      const t = performance.now();
      c.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      out.push((performance.now() - t).toFixed(1));
      await new Promise((r) => setTimeout(r, 100));
    }
    return out;
  });
  const long = await page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 2000));
    const t0 = window.__t0;
    return window.__longtasks
      .filter(([s, d]) => s + d > t0)
      .map(([s, d]) => `${Math.round(s - t0)}+${Math.round(d)}`)
      .join(' ');
  });
  console.log(`run ${run}: arrow steps (ms) ${steps.join(' ')}; long tasks from the click (start+ms): ${long || 'none'}`);
  await close();
}
await server.close?.();
process.exit(0);
