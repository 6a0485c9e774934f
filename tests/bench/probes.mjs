// What the browser benchmarks install in the page and read from Chromium's CPU profiles, in
// one place for browser.mjs, philly-page.mjs, history-browser.mjs, profile-rerun.mjs,
// report-page.mjs and explore-page.mjs.

/** An init script (`page.addInitScript`): every main-thread long task (busy > 50 ms) from the
 *  page's start, as [startTime, duration] in `window.__longtasks`. */
export const watchLongTasks = () => {
  window.__longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
};

/** The long tasks `watchLongTasks` saw end after the page's time `t0`, each as
 *  "+start+duration" (ms from `t0`). */
export function longTasksSince(page, t0) {
  return page.evaluate(
    (t0) => window.__longtasks.filter(([s, d]) => s + d > t0).map(([s, d]) => `+${Math.round(s - t0)}+${Math.round(d)}`),
    t0,
  );
}

/** A CPU profile's nodes by id, and each node's parent id. */
export function profileTree(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return { byId, parent };
}

/** Inclusive time (ms) of every function whose name matches `filter`, each counted once per
 *  sample however often it is on the stack. */
export function inclusiveTimes(profile, filter) {
  const { byId, parent } = profileTree(profile);
  const incl = new Map();
  profile.samples.forEach((id, i) => {
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const f = byId.get(n).callFrame.functionName;
      if (!filter.test(f) || seen.has(f)) continue;
      seen.add(f);
      incl.set(f, (incl.get(f) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return incl;
}

/** Starts a Chromium trace of the page's tasks and CPU samples on a CDP session; the function
 *  it returns stops it and resolves to the trace's events. */
export async function startTrace(cdp) {
  const events = [];
  const collect = ({ value }) => events.push(...value);
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute', 'v8', 'v8.wasm', 'disabled-by-default-v8.gc', 'blink', 'toplevel', 'ipc', 'loading'],
    },
  });
  return async () => {
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
    return events;
  };
}

/** With TRACE set, starts a trace of `page` ([`startTrace`]) with CPU samples every 200 us;
 *  the function it returns stops it and prints each main-thread task over OVER ms (50) with
 *  its STACKS heaviest stacks ([`longTasksOfTrace`]). Without TRACE, it does nothing. */
export async function traceLongTasks(page) {
  if (!process.env.TRACE) return async () => {};
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const stop = await startTrace(cdp);
  return async () => {
    const over = Number(process.env.OVER ?? 50);
    console.log(`  main-thread tasks over ${over} ms\n${longTasksOfTrace(await stop(), over, Number(process.env.STACKS ?? 0))}`);
  };
}

/** Every main-thread task over `over` ms in a trace ([`startTrace`]), each with the trace
 *  events inside it that took most time (style, layout, timers...) and the app's functions by
 *  inclusive and self time in the CPU samples taken during it: what a long task is made of;
 *  with `stackDepth`, its 6 heaviest stacks that deep too. */
export function longTasksOfTrace(events, over = 50, stackDepth = 0) {
  // INCL=regex: which functions the inclusive list counts (default: the app's and the DOM calls it makes).
  const INCL = new RegExp(process.env.INCL ?? 'quotalab|close|insertBefore|setAttribute|showModal|pushState|postMessage|to_vec|from_utf8|decode');
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const busiest = new Map();
  for (const e of events) {
    if (e.name === 'RunTask' && e.ph === 'X' && mains.some((m) => m.pid === e.pid && m.tid === e.tid)) {
      const key = `${e.pid}:${e.tid}`;
      busiest.set(key, (busiest.get(key) ?? 0) + (e.dur ?? 0));
    }
  }
  const main = [...busiest].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return 'no main-thread task in the trace';
  const onMain = (e) => `${e.pid}:${e.tid}` === main;
  // The CPU samples: a Profile event, then ProfileChunks with nodes and time deltas.
  const nodes = new Map();
  const samples = [];
  const profile = events.find((e) => e.name === 'Profile' && onMain(e));
  let t = profile?.args?.data?.startTime ?? 0;
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.id !== profile?.id) continue;
    const cpu = e.args.data.cpuProfile ?? {};
    for (const n of cpu.nodes ?? []) nodes.set(n.id, n);
    (cpu.samples ?? []).forEach((id, i) => {
      t += e.args.data.timeDeltas?.[i] ?? 0;
      samples.push([t, id]);
    });
  }
  samples.sort((a, b) => a[0] - b[0]);
  const name = (id) => (nodes.get(id)?.callFrame?.functionName || '(anonymous)').replace(process.env.STACKALL === 'hash' ? /^$/ : /::h[0-9a-f]{16}$/, '');
  const tasks = events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && onMain(e) && e.dur > over * 1000)
    .sort((a, b) => a.ts - b.ts);
  const t0 = tasks[0]?.ts ?? 0;
  // How busy each thread was over the whole trace: the page's, and each worker's.
  const names = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name]));
  const busy = new Map();
  let first = Infinity;
  let last = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X') continue;
    const key = `${e.pid}:${e.tid}`;
    if (key !== main && !/Worker/.test(names.get(key) ?? '')) continue;
    busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
    if (key === main) {
      first = Math.min(first, e.ts);
      last = Math.max(last, e.ts + e.dur);
    }
  }
  const header = `    busy over the step's ${((last - first) / 1000).toFixed(0)} ms: page ${((busy.get(main) ?? 0) / 1000).toFixed(0)} ms${[...busy]
    .filter(([k]) => k !== main && busy.get(k) > 1000)
    .map(([k, v]) => `, ${names.get(k)} ${(v / 1000).toFixed(0)} ms`)
    .join('')}\n`;
  const top = (m, n, width = 140) => [...m].sort((a, c) => c[1] - a[1]).slice(0, n).map(([f, v]) => `      ${(v / 1000).toFixed(1).padStart(7)}  ${f.slice(0, width)}`).join('\n');
  return header + tasks
    .map((task) => {
      const end = task.ts + task.dur;
      const inner = new Map();
      for (const e of events) {
        if (e.ph === 'X' && onMain(e) && e.ts >= task.ts && e.ts < end && e !== task && e.dur) {
          inner.set(e.name, (inner.get(e.name) ?? 0) + e.dur);
        }
      }
      const incl = new Map();
      const self = new Map();
      const stacks = new Map();
      let prev = null;
      for (const [at, id] of samples) {
        if (at < task.ts || at > end) continue;
        const dt = prev === null ? 0 : at - prev;
        prev = at;
        self.set(name(id), (self.get(name(id)) ?? 0) + dt);
        if (stackDepth) {
          const names = [];
          // The leaf, then the app's own functions above it.
          for (let n = id; n !== undefined && names.length < stackDepth; n = nodes.get(n)?.parent) {
            if (n === id || process.env.STACKALL || /quotalab|tachys::html|leptos::/.test(name(n))) names.push(name(n).slice(0, 110));
          }
          const key = names.join('\n           <- ');
          stacks.set(key, (stacks.get(key) ?? 0) + dt);
        }
        const seen = new Set();
        for (let n = id; n !== undefined; n = nodes.get(n)?.parent) {
          const f = name(n);
          if (!INCL.test(f) || seen.has(f)) continue;
          seen.add(f);
          incl.set(f, (incl.get(f) ?? 0) + dt);
        }
      }
      return `    task at +${((task.ts - t0) / 1000).toFixed(0)} ms, ${(task.dur / 1000).toFixed(1)} ms\n     trace events:\n${top(inner, Number(process.env.INNER ?? 6))}\n     app (inclusive):\n${top(incl, Number(process.env.TOP ?? 12))}\n     self:\n${top(self, 6)}${stackDepth ? `\n     stacks:\n${top(stacks, 8, 4000)}` : ''}`;
    })
    .join('\n');
}
