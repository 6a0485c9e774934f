// What the browser benchmarks install in the page and read from Chromium's CPU profiles, in
// one place for browser.mjs, philly-page.mjs, history-browser.mjs and profile-rerun.mjs.

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
