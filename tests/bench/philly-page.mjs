#!/usr/bin/env node
// Issue #30 "the main thread never blocks", on the newcomer's Philly path alone: the whole
// Philly CSV through the page's trace import (share column "cluster", 7 shares, no job
// limit), a keystroke in the scenario's name, then a share's borrow limit edited. For each
// step it prints the time from the action to the result drawn and every main-thread long
// task (PerformanceObserver "longtask", over 50 ms) from the action until 2 s after it, so
// the work that follows a result (the link, the editor) counts too.
//
//   QUOTALAB_DIST=/tmp/dist node tests/bench/philly-page.mjs [rounds, default 3]
//
// `./run bench-browser` measures the same path among the others; this one is for looking
// at one change quickly. PROFILE=1 prints, for each step of the first round, the app's
// functions by inclusive time on the main thread (Chromium's CPU profiler; names need a
// build that keeps them: `data-wasm-opt="0" data-keep-debug` on the page's rust link);
// STACKS=N adds the N heaviest whole stacks. TRACE=1 traces the first round instead and prints
// each main-thread task over 50 ms (OVER=ms: another threshold) with what it is made of (trace events, the app's functions;
// STACKS=N: its heaviest stacks, N deep, the app's frames only; STACKALL=1 every frame,
// STACKALL=hash with the symbols' hashes, for `twiggy paths` on the wasm). ATTRS=1 times every setAttribute and
// removeAttribute in each step and prints the heaviest by element, attribute and value size.
// PHASES=1 prints each run's own account of its time (the worker's phases, hops, decoding).
// JSON_FILE=path adds a step to each round: that scenario file opened from Files (the JSON
// path, e.g. the Philly trace imported by the CLI as docs/PERFORMANCE.md shows).
import { readFileSync } from 'node:fs';
import { DIST, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { inclusiveTimes, longTasksOfTrace, profileTree, startTrace, watchLongTasks } from './probes.mjs';
import { fillPhillyImport, waitForResult } from './scenarios.mjs';

const dist = process.env.QUOTALAB_DIST ?? DIST;
const rounds = Number(process.argv[2] ?? 3);

/** Runs `action` in the page; resolves when a new result named `name` (any if null) is drawn,
 *  then waits `after` ms more. Returns the time to the result and the long tasks. */
async function step(page, action, name, after = 2_000) {
  return stepOf(page, () => page.evaluate(`(${action})()`), name, after);
}

/** As `step`, for an `act` done from here (a file chosen). */
async function stepOf(page, act, name, after = 2_000) {
  await page.evaluate((name) => {
    const stats = document.querySelector('[data-testid="run-stats"]');
    const bar = document.querySelector('[data-testid="run-progress"]');
    const seq0 = Number(stats.dataset.runSeq);
    const done = () =>
      Number(stats.dataset.runSeq) > seq0 && (name === null || bar.dataset.runName === name) && bar.dataset.state === 'idle';
    window.__t0 = performance.now();
    window.__finished = new Promise((resolve, reject) => {
      const mo = new MutationObserver(() => {
        if (done()) {
          mo.disconnect();
          resolve();
        }
      });
      mo.observe(document.body, { attributes: true, subtree: true });
      setTimeout(() => reject(new Error('no result within 180 s')), 180_000);
    });
  }, name);
  await act();
  return page.evaluate(async (after) => {
    const t0 = window.__t0;
    await window.__finished;
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const drawn = performance.now() - t0;
    await new Promise((r) => setTimeout(r, after));
    const tasks = window.__longtasks
      .filter(([s, d]) => s + d > t0)
      .map(([s, d]) => [Math.round(s - t0), Math.round(d)]);
    return { drawn, tasks };
  }, after);
}

function inclusive(profile, top = 25) {
  const { byId, parent } = profileTree(profile);
  const incl = inclusiveTimes(profile, /quotalab|serde|leptos|reactive_graph|alloc|core::|JSON|postMessage|Function/);
  // Self time, with the nearest app function above it.
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame.functionName || '(anonymous)';
    if (/^\((idle|program|garbage collector)\)$/.test(f)) return;
    let app = '';
    for (let n = parent.get(id); n !== undefined; n = parent.get(n)) {
      const g = byId.get(n).callFrame.functionName;
      if (/quotalab_app::/.test(g)) { app = g; break; }
    }
    const key = `${f.replace(/::h[0-9a-f]{16}$/, '').slice(0, 70)}  <-  ${app.replace(/::h[0-9a-f]{16}$/, '').slice(0, 90)}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const fmt = (list) => list.map(([f, t]) => `    ${t.toFixed(1).padStart(8)}  ${f.replace(/::h[0-9a-f]{16}$/, '').slice(0, 170)}`).join('\n');
  let out = `${fmt([...incl].sort((a, b) => b[1] - a[1]).slice(0, top))}\n  self time (<- the app function calling it):\n${fmt([...self].sort((a, b) => b[1] - a[1]).slice(0, top))}`;
  if (process.env.STACKS) {
    // The heaviest whole stacks (leaf first), for a self time whose caller is not enough.
    const stacks = new Map();
    profile.samples.forEach((id, i) => {
      const names = [];
      for (let n = id; n !== undefined && names.length < 16; n = parent.get(n)) {
        const f = byId.get(n).callFrame.functionName;
        if (f) names.push(f.replace(/::h[0-9a-f]{16}$/, '').slice(0, 60));
      }
      if (/^\((idle|program|garbage collector)\)$/.test(names[0] ?? '')) return;
      const key = names.join('\n        <- ');
      stacks.set(key, (stacks.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    out += `\n  heaviest stacks:\n${fmt([...stacks].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.STACKS) || 8))}`;
  }
  return out;
}

/** TASKS=1: the profile cut into main-thread bursts (samples between idle ones), and for each
 *  burst over 40 ms its length and the app functions with the most inclusive time in it. */
function bursts(profile) {
  const { byId, parent } = profileTree(profile);
  const out = [];
  let cur = null;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(id).callFrame.functionName;
    if (/^\((idle|garbage collector)\)$/.test(leaf) || (leaf === '(program)' && !cur)) {
      if (cur) out.push(cur);
      cur = null;
      return;
    }
    cur ??= { ms: 0, at: i, incl: new Map(), self: new Map() };
    cur.ms += dt;
    const own = leaf.replace(/::h[0-9a-f]{16}$/, '');
    cur.self.set(own, (cur.self.get(own) ?? 0) + dt);
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const f = (byId.get(n).callFrame.functionName || '').replace(/::h[0-9a-f]{16}$/, '');
      if (!/quotalab|close|insertBefore|setAttribute|getBoundingClientRect|pushState|postMessage|to_vec|from_utf8|decode|layout/i.test(f) || seen.has(f)) continue;
      seen.add(f);
      cur.incl.set(f, (cur.incl.get(f) ?? 0) + dt);
    }
  });
  if (cur) out.push(cur);
  return out
    .filter((b) => b.ms > 40)
    .map((b) => {
      const top = (m, n) => [...m].sort((a, c) => c[1] - a[1]).slice(0, n).map(([f, t]) => `    ${t.toFixed(1).padStart(7)}  ${f.slice(0, 150)}`).join('\n');
      return `  burst of ${b.ms.toFixed(0)} ms:\n${top(b.incl, 14)}\n   self:\n${top(b.self, 8)}`;
    })
    .join('\n');
}

let cdp = null;
async function profiled(label, run) {
  if (!cdp) return run();
  if (process.env.TRACE) {
    const stop = await startTrace(cdp);
    const r = await run();
    console.log(`  ${label}: main-thread long tasks\n${longTasksOfTrace(await stop(), Number(process.env.OVER ?? 50), Number(process.env.STACKS ?? 0))}`);
    return r;
  }
  await cdp.send('Profiler.start');
  const r = await run();
  const { profile } = await cdp.send('Profiler.stop');
  console.log(process.env.TASKS ? `  ${label}: main-thread bursts\n${bursts(profile)}` : `  ${label}: inclusive ms\n${inclusive(profile)}`);
  return r;
}

const server = await serveDist(dist);
const { page, close } = await openBrowser('philly-page', { viewport: { width: 1440, height: 1000 } });
const show = async (label, r) => {
  console.log(`${label.padEnd(34)} drawn ${r.drawn.toFixed(0).padStart(5)} ms; long tasks (start+ms): ${r.tasks.map(([s, d]) => `${s}+${d}`).join(' ') || 'none'}`);
  if (process.env.PHASES) {
    // The run's own account (toolbar.rs, RunProgressBar): the worker's phases, the hops
    // (page to worker, worker to page) and the page's decoding.
    const d = await page.evaluate(() => ({ ...document.querySelector('[data-testid="run-progress"]').dataset }));
    console.log(`    run: compute ${d.runComputeMs} ms (phases ${d.runPhasesMs}), hops ${d.runHopsMs}, decode ${d.runDecodeMs} ms`);
  }
  if (process.env.ATTRS) {
    const top = await page.evaluate(() => {
      const list = [...window.__attrs].sort((a, b) => b[1][1] - a[1][1]).slice(0, 8);
      window.__attrs.clear();
      return list;
    });
    for (const [key, [n, ms]] of top) console.log(`    ${ms.toFixed(1).padStart(7)} ms ${String(n).padStart(6)}x  ${key}`);
  }
};
try {
  await page.addInitScript(watchLongTasks);
  if (process.env.ATTRS) {
    await page.addInitScript(() => {
      window.__attrs = new Map();
      for (const name of ['setAttribute', 'removeAttribute']) {
        const real = Element.prototype[name];
        Element.prototype[name] = function (attr, value) {
          const t0 = performance.now();
          const r = real.call(this, attr, value);
          const ms = performance.now() - t0;
          const id = this.getAttribute('data-testid') ?? this.className?.toString().split(' ')[0] ?? '';
          const key = `${name} ${this.tagName.toLowerCase()}${id ? `[${id}]` : ''} ${attr} (${String(value ?? '').length} chars)`;
          const e = window.__attrs.get(key) ?? [0, 0];
          window.__attrs.set(key, [e[0] + 1, e[1] + ms]);
          return r;
        };
      }
    });
  }
  if (process.env.PROFILE || process.env.TRACE) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  }
  for (let k = 0; k < rounds; k++) {
    await page.goto(`${server.url}?r=${k}`);
    await waitForApp(page);
    await waitForResult(page, 'AWS walkthrough');
    await page.waitForTimeout(1_000);
    await page.evaluate(() => window.__attrs?.clear());
    await fillPhillyImport(page);
    await show(`round ${k + 1}: import -> drawn`, await profiled('import', () => step(page, () => document.querySelector('[data-testid="trace-import"]').click(), 'trace philly-adaptdl.csv')));
    const name = page.getByLabel('Name', { exact: true }).first();
    await name.focus();
    await page.keyboard.press('End');
    await show(`round ${k + 1}: a keystroke in the name`, await profiled('keystroke', () => step(page, () => {
      const el = document.activeElement;
      el.value += 'x';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, 'trace philly-adaptdl.csvx')));
    await show(`round ${k + 1}: a share's borrow limit`, await profiled('share edit', () => step(page, () => {
      const f = document.querySelector('[data-testid="share-borrow-limit"]');
      const el = f.tagName === 'INPUT' ? f : f.querySelector('input');
      el.value = el.value === '50' ? '60' : '50';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, null)));
    if (process.env.JSON_FILE) {
      const file = process.env.JSON_FILE;
      const name = JSON.parse(readFileSync(file, 'utf8')).name;
      await show(`round ${k + 1}: the JSON file opened`, await profiled('JSON file', () => stepOf(page, () => page.setInputFiles('[data-testid="import-scenario-input"]', file), name)));
    }
    if (cdp && k + 1 >= Number(process.env.PROFILE_ROUND ?? 1)) cdp = null; // the first round only (PROFILE_ROUND=N: up to round N)
  }
} finally {
  await close();
  await server.close?.();
}
