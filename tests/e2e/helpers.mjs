// Helpers for the end-to-end tests: serve dist/ on 127.0.0.1 and drive Debian's Chromium
// through playwright-core. Every test fails on any console error, page error or failed request.
import { createServer } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// QUOTALAB_DIST serves another build (two builds side by side in one benchmark run).
export const DIST = process.env.QUOTALAB_DIST ?? join(ROOT, 'dist');
export const SHOTS = join(ROOT, 'target', 'e2e');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// Flags verified on these machines (../shared/TOOLCHAIN.md, "Browser tests").
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // CHROMIUM_FLAGS: more flags for an experiment (space-separated), e.g. V8's.
  ...(process.env.CHROMIUM_FLAGS ?? '').split(' ').filter(Boolean),
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
};

/** Serves `dir` (default dist/) on a free 127.0.0.1 port; resolves to { url, close }. */
export async function serveDist(dir = DIST) {
  await stat(join(dir, 'index.html')).catch(() => {
    throw new Error(`${dir}/index.html is missing: run \`trunk build --release\` first`);
  });
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/**
 * Opens a fresh Chromium profile and one page. `problems` collects console errors, page
 * errors, failed requests and HTTP errors; `close()` saves target/e2e/<name>.png first.
 */
export async function openBrowser(name, { viewport = { width: 1280, height: 900 }, deviceScaleFactor = 1 } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'quotalab-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    deviceScaleFactor,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.stack ?? err.message}`));
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText ?? 'unknown'})`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  const screenshot = async () => {
    await mkdir(SHOTS, { recursive: true });
    const path = join(SHOTS, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    return path;
  };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await screenshot();
    } catch (e) {
      console.error(`could not save the screenshot of ${name}: ${e.message}`);
    }
    await context.close();
    await rm(profile, { recursive: true, force: true });
  };
  return { page, problems, screenshot, close };
}

/**
 * Waits until the Leptos app has rendered (the summary table, or an error box/banner) and its
 * simulation worker has settled (see `waitForWorker`).
 */
export async function waitForApp(page, timeout = 30_000) {
  await page.waitForSelector('table.summary tbody tr, .error-box, #panic-banner', { timeout });
  if ((await page.locator('#panic-banner').count()) === 0) await waitForWorker(page, timeout);
}

/**
 * Waits until the page's simulation worker is `ready` (its scripts loaded, its wasm running)
 * or `off` (none will be started): `data-worker` on the run progress line
 * (src/worker/page.rs, WorkerState). The page starts a worker about a second after its first
 * result (and a fresh one after a Cancel); a reload or a navigation while it is still loading
 * its scripts aborts those requests, which `openBrowser` counts as failed requests. Call this
 * before `page.reload()`, `page.goto()` of another document or the end of a test.
 */
export async function waitForWorker(page, timeout = 30_000) {
  await page.waitForSelector('[data-testid="run-progress"][data-worker="ready"], [data-testid="run-progress"][data-worker="off"]', {
    state: 'attached',
    timeout,
  });
  // The engine worker of every other job (links, imports: src/worker/service.rs), if it is
  // loading.
  await page.waitForFunction(() => document.documentElement.dataset.engineService !== 'starting', null, { timeout });
}

/**
 * Reads the canvas back and returns { width, height, clientWidth, clientHeight (its CSS box, fractional), dpr, colours, counts }:
 * `colours` is the number of distinct colours (quantised to 4 bits per channel) and
 * `counts[hex]` the number of pixels within a small distance of each `targets` colour.
 */
export async function canvasStats(page, selector, targets = []) {
  // As a person would see it: in view (a chart out of view may owe a drawing, src/charts/mod.rs).
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((sel) => !document.querySelector(sel)?.hasAttribute('data-pending'), selector);
  return page.$eval(
    selector,
    (canvas, targets) => {
      const ctx = canvas.getContext('2d');
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const seen = new Set();
      const rgb = targets.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
      const counts = Object.fromEntries(targets.map((t) => [t, 0]));
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
        seen.add(((r >> 4) << 12) | ((g >> 4) << 8) | ((b >> 4) << 4) | (a >> 4));
        rgb.forEach(([tr, tg, tb], k) => {
          if (Math.abs(r - tr) + Math.abs(g - tg) + Math.abs(b - tb) <= 24) counts[targets[k]] += 1;
        });
      }
      return {
        width: canvas.width,
        height: canvas.height,
        clientWidth: canvas.getBoundingClientRect().width,
        clientHeight: canvas.getBoundingClientRect().height,
        dpr: window.devicePixelRatio,
        colours: seen.size,
        counts,
      };
    },
    targets,
  );
}

/**
 * Opens the Explore panel (SPEC 15). If it does not show, the error says what the page had
 * at that moment (the button, the dialog, the panic banner): a click that opened nothing
 * once, in a whole run, and never again when tried alone.
 */
export async function openExplore(page) {
  await page.getByTestId('explore-open').click();
  try {
    await page.getByTestId('explore-dialog').waitFor({ state: 'visible', timeout: 30_000 });
  } catch (e) {
    const seen = await page.evaluate(() => {
      const button = document.querySelector('[data-testid="explore-open"]');
      const dialog = document.querySelector('[data-testid="explore-dialog"]');
      return {
        button: button && { text: button.textContent, busy: button.getAttribute('aria-busy') },
        mounted: Boolean(document.querySelector('[data-testid="explore-root"]')),
        dialog: dialog && { open: dialog.open, display: getComputedStyle(dialog).display, box: dialog.getBoundingClientRect().toJSON() },
        panic: document.querySelector('#panic-banner')?.textContent ?? null,
      };
    });
    throw new Error(`the Explore panel did not show within 30 s of the click: ${JSON.stringify(seen)}`, { cause: e });
  }
}

/** Sets the Explore panel's path, range, seeds and (optionally) metric, as a person types them. */
export async function fillExplore(page, { path, from, to, step, seeds, metric }) {
  await page.getByTestId('explore-field').selectOption(path);
  for (const [id, v] of [['from', from], ['to', to], ['step', step], ['seeds', seeds]]) {
    await page.getByTestId(`explore-${id}`).fill(String(v));
  }
  if (metric) await page.getByTestId('explore-metric').selectOption(metric);
}

/** Waits until the sweep's progress reads `total / total runs, done`. */
export async function waitSweepDone(page, total, timeout = 120_000) {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="explore-progress"]')?.textContent === want,
    `${total} / ${total} runs, done`,
    { timeout },
  );
}

/**
 * Opens the Files menu, clicks its item `testid` once the menu is open and the item visible,
 * and saves the download in target/e2e/: `{ name, path, bytes }`. An export that fails says
 * why in an error notice: then this fails at once with its words instead of waiting out the
 * download's timeout (a notice already showing before the click does not count).
 */
export async function downloadFromFilesMenu(page, testid) {
  const notice = page.locator('[data-testid="share-notice"].error');
  const noticeBefore = await notice.count();
  await page.locator('[data-testid="files-menu"] > summary').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="files-menu"]').open);
  const item = page.locator(`[data-testid="${testid}"]`);
  await item.waitFor({ state: 'visible' });
  const download = page.waitForEvent('download');
  const failure = noticeBefore
    ? download
    : notice.waitFor({ state: 'visible' }).then(
        async () => {
          throw new Error(`${testid}: ${await notice.innerText()}`);
        },
        () => download,
      );
  const [dl] = await Promise.all([Promise.race([download, failure]), item.click()]);
  const name = dl.suggestedFilename();
  const path = join(SHOTS, `download-${name}`);
  await dl.saveAs(path);
  return { name, path, bytes: await readFile(path) };
}

/** The scenario the page's URL carries (`#s=`, SPEC 10's codec), or null when it has none. */
export async function linkedScenario(page) {
  const hash = await page.evaluate(() => location.hash);
  const m = /^#s=([^&]*)/.exec(hash);
  if (!m) return null;
  return JSON.parse(inflateSync(Buffer.from(m[1], 'base64url')).toString('utf8'));
}

/** Waits until the scenario in the URL satisfies `pred` (the link is written after a debounce). */
export async function waitForLink(page, pred, timeout = 30_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const s = await linkedScenario(page);
    if (s && pred(s)) return s;
    if (Date.now() > end) throw new Error(`the link never carried the expected scenario (last: ${JSON.stringify(s)?.slice(0, 300)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
