#!/usr/bin/env node
// The AWS walkthrough's "re-simulate + redraw < 16 ms" alone, with where the time goes: Run
// clicked -> the result shown and the page idle (its next task runs), `ROUNDS` times (default
// 25, the first 3 not counted). Prints the median and best of "shown" (the run counter moved,
// the page idle) and "idle" (the task after it ran: every chart drawn), and with ROWS=1 each
// run's worker phases and message hops (src/state/runner.rs's data-* attributes). TRACE=1
// traces the last 5 runs and prints every main-thread task over OVER ms (default 1).
//
//   QUOTALAB_DIST=/tmp/dist node tests/bench/walkthrough-page.mjs
//
// Alternate two builds on the same minutes to compare them: the machine's timings swing.
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { runStats, waitForResult } from './scenarios.mjs';
import { longTasksOfTrace, startTrace } from './probes.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 25);
const server = await serveDist(process.env.QUOTALAB_DIST ?? DIST);
const { page, close } = await openBrowser('walkthrough-page', { viewport: { width: 1440, height: 900 } });
try {
  await page.goto(server.url);
  await waitForApp(page);
  await waitForResult(page, 'AWS walkthrough');
  const cdp = process.env.TRACE ? await page.context().newCDPSession(page) : null;
  let stop = null;
  const rows = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (cdp && i === ROUNDS - 5) stop = await startTrace(cdp);
    const r = await page.evaluate(async () => {
      const stats = document.querySelector('[data-testid="run-stats"]');
      const bar = document.querySelector('[data-testid="run-progress"]');
      const seq0 = Number(stats.dataset.runSeq);
      const t0 = performance.now();
      const shown = new Promise((resolve) => {
        const mo = new MutationObserver(() => {
          if (Number(stats.dataset.runSeq) > seq0 && bar.dataset.state === 'idle') {
            mo.disconnect();
            resolve(performance.now());
          }
        });
        mo.observe(document.body, { attributes: true, subtree: true });
      });
      document.querySelector('[data-testid="run"]').click();
      const t1 = await shown;
      await new Promise((r) => setTimeout(r, 0));
      return { shown: t1 - t0, idle: performance.now() - t0 };
    });
    r.stats = await runStats(page);
    rows.push(r);
    await page.waitForTimeout(50);
  }
  if (stop) console.log(longTasksOfTrace(await stop(), Number(process.env.OVER ?? 1), 3));
  const counted = rows.slice(3);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const of = (k) => `median ${median(counted.map((r) => r[k])).toFixed(1)} ms, best ${Math.min(...counted.map((r) => r[k])).toFixed(1)} ms`;
  console.log(`walkthrough re-run (${counted.length} runs): shown ${of('shown')}; idle ${of('idle')}`);
  if (process.env.ROWS) {
    for (const r of counted) {
      const s = r.stats;
      console.log(`  shown ${r.shown.toFixed(1)} idle ${r.idle.toFixed(1)}; worker phases ${s.phases?.join(',')}; hops ${s.hops?.join(',')}; decode ${s.decodeMs}`);
    }
  }
} finally {
  await close();
  await server.close();
}
