#!/usr/bin/env node
// SPEC 16 at scale in the page: a history of 100,000 Kueue Workloads (`kubectl -o json`, about
// 470 MB) through "Import job history…". Serves dist/ (build it first: `trunk build
// --release`), imports crates/cli/tests/history/kueue-config.yaml, opens the history dialog
// from the offer, picks the file, and measures in the page:
//
//   read      file picked -> the dialog's summary ("N workloads of 3 ClusterQueues") shown
//   progress  how many times the dialog's progress line changed meanwhile
//   responsive the main thread's worst lateness of a 50 ms timer, and its longest task
//             (PerformanceObserver "longtask"), while the worker reads
//
// `node tests/bench/history-browser.mjs [FILE]` (FILE: a history to use instead of generating
// one with `cargo run --release -p quotalab-engine --example history_gen -- 100000 json`).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { ROOT, openBrowser, serveDist, waitForApp } from '../e2e/helpers.mjs';
import { watchLongTasks } from './probes.mjs';

const HISTORY = join(ROOT, 'crates', 'cli', 'tests', 'history');

async function generate(dir) {
  const out = join(dir, 'wl100k.json');
  const bin = join(ROOT, 'target', 'release', 'examples', 'history_gen');
  execFileSync('cargo', ['build', '--release', '-q', '-p', 'quotalab-engine', '--example', 'history_gen'], { cwd: ROOT, stdio: 'inherit' });
  await new Promise((resolve, reject) => {
    const ws = createWriteStream(out);
    ws.on('finish', resolve);
    ws.on('error', reject);
    ws.write(execFileSync(bin, ['100000', 'json'], { maxBuffer: 1 << 30 }));
    ws.end();
  });
  return out;
}

async function main() {
  const tmp = await mkdtemp(join(os.tmpdir(), 'quotalab-history-bench-'));
  const server = await serveDist();
  try {
    const file = process.argv[2] ?? (await generate(tmp));
    const size = (await stat(file)).size;
    const { page, problems, close } = await openBrowser('history-scale', { viewport: { width: 1280, height: 1000 } });
    try {
      await page.addInitScript(watchLongTasks);
      await page.goto(server.url);
      await waitForApp(page);
      await page.locator('[data-testid="files-menu"] > summary').click();
      await page.locator('[data-testid="import-config"]').click();
      await page.setInputFiles('[data-testid="config-file"]', join(HISTORY, 'kueue-config.yaml'));
      await page.locator('[data-testid="config-summary"]').waitFor();
      await page.locator('[data-testid="config-apply"]:not([disabled])').click();
      await page.locator('[data-testid="empty-offer-history"]').click();
      await page.locator('[data-testid="history-dialog"]').waitFor();
      await page.locator('[data-testid="history-flavor-map"]').fill('a100=ml.p4d.24xlarge');
      await page.locator('[data-testid="history-flavor-map"]').dispatchEvent('change');
      // Watch the main thread and the progress line, then pick the file.
      await page.evaluate(() => {
        window.__lag = 0;
        window.__updates = 0;
        window.__seen = new Set();
        let last = performance.now();
        window.__timer = setInterval(() => {
          const now = performance.now();
          window.__lag = Math.max(window.__lag, now - last - 50);
          last = now;
        }, 50);
        new MutationObserver(() => {
          const p = document.querySelector('[data-testid="history-reading"]');
          if (p && !window.__seen.has(p.textContent)) {
            window.__seen.add(p.textContent);
            window.__updates += 1;
          }
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
        window.__t0 = performance.now();
      });
      await page.setInputFiles('[data-testid="history-file"]', file);
      const summary = page.locator('[data-testid="history-summary"]');
      await summary.waitFor({ timeout: 600_000 });
      const r = await page.evaluate(() => {
        clearInterval(window.__timer);
        const t1 = performance.now();
        const longest = Math.max(0, ...window.__longtasks.filter(([s, d]) => s + d > window.__t0).map(([, d]) => d));
        return { ms: t1 - window.__t0, lag: window.__lag, updates: window.__updates, longest, last: [...window.__seen].slice(-2) };
      });
      const text = await summary.innerText();
      console.log(`history ${(size / 1e6).toFixed(0)} MB: picked -> "${text.split('\n')[0]}" in ${(r.ms / 1000).toFixed(2)} s`);
      console.log(`  ${r.updates} progress lines shown (last: ${JSON.stringify(r.last)})`);
      console.log(`  main thread: worst timer lateness ${Math.round(r.lag)} ms, longest task ${Math.round(r.longest)} ms`);
      if (problems.length) console.log(`  page problems: ${problems.slice(0, 3).join('; ')}`);
    } finally {
      await close();
    }
  } finally {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
