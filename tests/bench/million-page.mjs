#!/usr/bin/env node
// Issue #30 "the main thread never blocks", on the largest run the browser benchmark makes:
// 1,000,000 generated jobs (20 shares) typed into the JSON editor, simulated by the engine
// worker with progress. Prints the time to the result drawn and every main-thread long task
// (PerformanceObserver "longtask", over 50 ms) from the edit until 2 s after the result.
//
//   QUOTALAB_DIST=/tmp/dist node tests/bench/million-page.mjs [rounds, default 2]
//
// `./run bench-browser` measures the same run among the others ("longest task"); this one is
// for looking at it alone. TRACE=1 traces the first round and prints each task over 50 ms
// (OVER=ms: another threshold) with what it is made of (STACKS=N: its N heaviest stacks; names need a build that keeps
// them, as tests/bench/philly-page.mjs says).
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { longTasksOfTrace, startTrace, watchLongTasks } from './probes.mjs';
import { generated, setScenarioText, waitForResult } from './scenarios.mjs';

const dist = process.env.QUOTALAB_DIST ?? DIST;
const rounds = Number(process.argv[2] ?? 2);
const text = JSON.stringify(generated(1_000_000, { shares: 20, name: 'bench 1M' }));

const server = await serveDist(dist);
const { page, close } = await openBrowser('million-page', { viewport: { width: 1440, height: 1000 } });
try {
  await page.addInitScript(watchLongTasks);
  const cdp = process.env.TRACE ? await page.context().newCDPSession(page) : null;
  for (let round = 1; round <= rounds; round++) {
    await page.goto(server.url);
    await waitForApp(page);
    await waitForResult(page, 'AWS walkthrough');
    await page.waitForTimeout(1_500);
    const stop = cdp && round === 1 ? await startTrace(cdp) : null;
    const t0 = await page.evaluate(() => performance.now());
    await setScenarioText(page, text);
    await waitForResult(page, 'bench 1M', 300_000);
    const r = await page.evaluate(async (t0) => {
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const drawn = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 2_000));
      const tasks = window.__longtasks.filter(([s, d]) => s + d > t0).map(([s, d]) => [Math.round(s - t0), Math.round(d)]);
      return { drawn, tasks };
    }, t0);
    console.log(`round ${round}: typed -> drawn ${(r.drawn / 1000).toFixed(2)} s; long tasks (start+ms): ${r.tasks.map(([s, d]) => `${s}+${d}`).join(' ') || 'none'}`);
    if (stop) console.log(longTasksOfTrace(await stop(), Number(process.env.OVER ?? 50), Number(process.env.STACKS ?? 0)));
  }
} finally {
  await close();
  await server.close();
}
