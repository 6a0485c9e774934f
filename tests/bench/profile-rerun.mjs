#!/usr/bin/env node
// Where the page's time goes when a result lands (a profiling aid, not a test):
// loads a preset, presses Run a few times under Chromium's tracer and CPU profiler, and
// prints the main thread's time by trace event (layout, style, paint, script) and the
// functions with the most self time. Wasm function names appear only in a build that keeps
// them (wasm-bindgen --keep-debug, wasm-opt -g); point QUOTALAB_DIST at one.
//   node tests/bench/profile-rerun.mjs [preset id, default research] [runs, default 5]
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { inclusiveTimes } from './probes.mjs';
import { waitForResult } from './scenarios.mjs';

const dist = process.env.QUOTALAB_DIST ?? DIST;
const preset = process.argv[2] ?? 'research';
const runs = Number(process.argv[3] ?? 5);

const server = await serveDist(dist);
const { page, close } = await openBrowser('profile-rerun');
try {
  await page.goto(server.url);
  await waitForApp(page);
  await waitForResult(page, 'AWS walkthrough');
  await page.locator('[data-testid="preset-select"]').selectOption(preset);
  await page.waitForFunction(() => {
    const bar = document.querySelector('[data-testid="run-progress"]');
    return bar.dataset.state === 'idle' && bar.dataset.runName !== 'AWS walkthrough';
  }, null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,v8.execute,blink', transferMode: 'ReportEvents' });
  await cdp.send('Profiler.start');
  const wall = [];
  for (let i = 0; i < runs; i++) {
    wall.push(await page.evaluate(async () => {
      const stats = document.querySelector('[data-testid="run-stats"]');
      const bar = document.querySelector('[data-testid="run-progress"]');
      const seq0 = Number(stats.dataset.runSeq);
      const t0 = performance.now();
      document.querySelector('[data-testid="run"]').click();
      while (!(Number(stats.dataset.runSeq) > seq0 && bar.dataset.state === 'idle')) {
        await new Promise((r) => setTimeout(r, 1));
      }
      await new Promise((r) => setTimeout(r, 0));
      return performance.now() - t0;
    }));
    await page.waitForTimeout(100);
  }
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Tracing.end');
  await done;

  console.log(`runs (click -> result shown, ms): ${wall.map((x) => x.toFixed(1)).join(', ')}`);
  // Main thread of the renderer: the thread of the most 'FunctionCall'/'Layout' events.
  const count = new Map();
  for (const e of events) if (e.name === 'Layout' || e.name === 'FunctionCall') count.set(`${e.pid}:${e.tid}`, (count.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
  const by = new Map();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main || e.ph !== 'X' || !e.dur) continue;
    by.set(e.name, (by.get(e.name) ?? 0) + e.dur / 1000);
  }
  console.log('\nmain thread, total duration by trace event (nested events overlap), ms per run:');
  for (const [name, t] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`  ${(t / runs).toFixed(1).padStart(8)}  ${name}`);

  // Self time per function from the CPU profile.
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const name = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url ? n.callFrame.url.split('/').pop() : ''}`;
    self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  console.log('\nself time by function, ms per run:');
  for (const [name, t] of [...self].filter(([n]) => !/^\(idle\)/.test(n)).sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`  ${(t / runs).toFixed(2).padStart(8)}  ${name.slice(0, 150)}`);
  }

  // Inclusive time of the app's own functions (a function counted once per sample).
  const incl = inclusiveTimes(profile, process.env.PROFILE_FILTER ? new RegExp(process.env.PROFILE_FILTER) : /quotalab|leptos|tachys|reactive_graph|plotters|postcard/);
  console.log('\ninclusive time of app functions, ms per run:');
  for (const [name, t] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45)) {
    console.log(`  ${(t / runs).toFixed(2).padStart(8)}  ${name.replace(/::h[0-9a-f]{16}$/, '').slice(0, 150)}`);
  }
} finally {
  await close();
  server.close();
}
