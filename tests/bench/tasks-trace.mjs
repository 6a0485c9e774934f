#!/usr/bin/env node
// Issue #30 "the main thread never blocks", measured task by task: every main-thread task of
// one step, from a trace of top-level events only (no CPU profiler, so the tasks keep about
// their own length), each build in turn for a side-by-side comparison.
//
//   node tests/bench/tasks-trace.mjs [dist ...]          (default: dist/)
//   STEP=json|csv|million ROUNDS=3 JSON_FILE=/tmp/philly-aws.json DETAIL=1 (what each style
//   recalculation and layout of a long task covered, Blink's counts)
//
// Steps: `json` opens JSON_FILE from Files (the Philly JSON imported by the CLI, as
// docs/PERFORMANCE.md shows); `csv` imports the Philly CSV through the page's trace form
// (share column "cluster", 7 shares, no job limit); `million` types 1,000,000 generated jobs
// (20 shares) into the JSON editor. Each round opens a fresh browser per build. Prints per
// round: the longest task, the six longest, how many are over 30 ms and their time over
// 30 ms, the main thread's busy time, the tasks the worker's messages came in, and each task
// over 30 ms with the trace events that made it (script, timers, style, layout, paint).
import { readFileSync } from 'node:fs';
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { fillPhillyImport, generated, readyForMillion, setScenarioText, waitForResult } from './scenarios.mjs';

const rounds = Number(process.env.ROUNDS ?? 3);
const STEP = process.env.STEP ?? 'json';
const DETAIL = Boolean(process.env.DETAIL);
const JSON_FILE = process.env.JSON_FILE ?? '/tmp/philly-aws.json';
const dists = process.argv.length > 2 ? process.argv.slice(2) : [DIST];
const INNER = /^(TimerFire|FunctionCall|EventDispatch|HandlePostMessage|RunMicrotasks|UpdateLayoutTree|Layout|PrePaint|Paint|Commit|Layerize|ParseHTML|MajorGC|MinorGC|FireAnimationFrame)$/;

/** Prepares the step in `page`; returns the name of the result it waits for. */
async function prepare(page) {
  if (STEP === 'csv') {
    await page.waitForTimeout(1_500);
    return fillPhillyImport(page);
  }
  if (STEP === 'million') {
    await readyForMillion(page); // as the browser benchmark does
    return 'bench 1M';
  }
  return JSON.parse(readFileSync(JSON_FILE, 'utf8')).name;
}

/** Does the step. */
async function act(page) {
  if (STEP === 'csv') return page.locator('[data-testid="trace-import"]').click();
  if (STEP === 'million') return setScenarioText(page, JSON.stringify(generated(1_000_000, { shares: 20, name: 'bench 1M' })));
  return page.setInputFiles('[data-testid="import-scenario-input"]', JSON_FILE);
}

/** The page's main thread in a trace: its renderer main thread that ran the most. */
function mainThread(events) {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const busy = new Map();
  for (const e of events) {
    if (e.name === 'RunTask' && mains.some((m) => m.pid === e.pid && m.tid === e.tid)) {
      busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
    }
  }
  return [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
}

const ms = (us) => (us / 1000).toFixed(1);
const servers = await Promise.all(dists.map((d) => serveDist(d)));
const longest = dists.map(() => []);
try {
  for (let round = 1; round <= rounds; round++) {
    for (let i = 0; i < dists.length; i++) {
      const { page, close } = await openBrowser('tasks-trace', { viewport: { width: 1440, height: 1000 } });
      try {
        await page.goto(servers[i].url);
        await waitForApp(page);
        await waitForResult(page, 'AWS walkthrough');
        const name = await prepare(page);
        await page.waitForTimeout(1_000);
        const cdp = await page.context().newCDPSession(page);
        const events = [];
        cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
        await cdp.send('Tracing.start', {
          transferMode: 'ReportEvents',
          traceConfig: { includedCategories: ['__metadata', 'toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] },
        });
        await page.waitForTimeout(300);
        await act(page);
        await waitForResult(page, name, 300_000);
        await page.waitForTimeout(1_000);
        const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
        await cdp.send('Tracing.end');
        await done;

        const main = mainThread(events);
        const on = (e) => `${e.pid}:${e.tid}` === main && e.ph === 'X';
        const tasks = events.filter((e) => on(e) && e.name === 'RunTask');
        const within = (t, e) => e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur;
        const ds = tasks.map((t) => t.dur).sort((a, b) => b - a);
        longest[i].push(ds[0] ?? 0);
        const messages = events
          .filter((e) => on(e) && e.name === 'HandlePostMessage' && e.dur > 5_000)
          .map((p) => tasks.find((t) => within(t, p))?.dur ?? 0)
          .sort((a, b) => b - a);
        console.log(
          `${dists[i]} round ${round}: longest ${ms(ds[0] ?? 0)} ms; six longest ${ds.slice(0, 6).map(ms).join(', ')}; ` +
            `over 30 ms: ${ds.filter((d) => d > 30_000).length} (${ms(ds.reduce((a, d) => a + Math.max(0, d - 30_000), 0))} ms over); ` +
            `busy ${ms(ds.reduce((a, d) => a + d, 0))} ms; the worker's messages' tasks over 5 ms: ${messages.map(ms).join(', ') || 'none'}`,
        );
        const t0 = Math.min(...tasks.map((t) => t.ts));
        for (const t of tasks.filter((t) => t.dur > 30_000).sort((a, b) => a.ts - b.ts)) {
          const inner = new Map();
          for (const e of events) {
            if (on(e) && e !== t && e.dur && INNER.test(e.name) && within(t, e)) inner.set(e.name, (inner.get(e.name) ?? 0) + e.dur);
          }
          const parts = [...inner].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, d]) => `${n} ${ms(d)}`);
          console.log(`    +${((t.ts - t0) / 1000).toFixed(0)} ms: ${ms(t.dur)} ms (${parts.join(', ')})`);
          if (DETAIL) {
            // What each style recalculation and layout covered (Blink's own counts).
            for (const e of events.filter((e) => on(e) && /^(UpdateLayoutTree|Layout)$/.test(e.name) && within(t, e) && e.dur > 2_000)) {
              const a = e.args?.beginData ?? {};
              const b = e.args?.elementCount ?? e.args?.endData ?? {};
              console.log(`        ${e.name} ${ms(e.dur)} ms ${JSON.stringify({ ...a, ...(typeof b === 'object' ? b : { elements: b }) }).slice(0, 300)}`);
            }
          }
        }
      } finally {
        await close();
      }
    }
  }
  for (let i = 0; i < dists.length; i++) console.log(`${dists[i]}: longest task per round ${longest[i].map(ms).join(', ')} ms`);
} finally {
  for (const s of servers) await s.close?.();
}
