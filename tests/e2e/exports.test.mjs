// Chart PNG exports for documents: every chart's PNG is drawn at twice
// the chart's size on the page, with its title above and a legend of its shares below.
// The PNGs are saved in target/e2e/download-*.png.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { SHOTS, downloadFromFilesMenu, openBrowser, serveDist, waitForApp } from './helpers.mjs';

let server;
before(async () => {
  server = await serveDist();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await server?.close();
});

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The Files menu's chart items: `[{ testid, file }]`. */
async function chartItems(page) {
  await page.locator('[data-testid="files-menu"] > summary').click();
  // The menu's items are drawn when it opens: wait for them before reading the list.
  await page.locator('[data-testid^="export-chart-"]').first().waitFor({ state: 'attached', timeout: 10_000 });
  const items = await page.$$eval('[data-testid^="export-chart-"]', (els) => els.map((e) => e.dataset.testid));
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.querySelector('[data-testid="files-menu"]')?.removeAttribute('open'));
  return items.map((testid) => ({ testid, file: testid.replace(/^export-chart-/, '') }));
}


/**
 * Counts, in the bottom `rows` rows of the PNG, the pixels near each of `colours` (CSS
 * `rgb(...)` strings), decoding the PNG in a blank page (no Content-Security-Policy there).
 */
async function bottomColours(context, bytes, rows, colours) {
  const blank = await context.newPage();
  try {
    return await blank.evaluate(
      async ({ b64, rows, colours }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const data = ctx.getImageData(0, c.height - rows, c.width, rows).data;
        return colours.map((css) => {
          const [r, g, b] = css.match(/\d+/g).map(Number);
          let n = 0;
          for (let i = 0; i < data.length; i += 4) {
            if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) <= 24) n++;
          }
          return n;
        });
      },
      { b64: bytes.toString('base64'), rows, colours },
    );
  } finally {
    await blank.close();
  }
}

test('chart PNGs are twice the chart, with a title band and a legend of its shares', async (t) => {
  const { page, problems, close } = await openBrowser('exports-charts', { viewport: { width: 1440, height: 900 } });
  t.after(close);
  await page.goto(server.url);
  await waitForApp(page);

  // The shares and their colours, as the page's legend shows them.
  const shares = await page.$$eval('[data-testid="chart-occupancy"] ul.share-legend li', (lis) =>
    lis.map((li) => ({ name: li.dataset.share, colour: getComputedStyle(li.querySelector('.swatch')).backgroundColor })),
  );
  assert.ok(shares.length >= 2, JSON.stringify(shares));

  const items = await chartItems(page);
  assert.ok(items.length >= 5, items.map((i) => i.file).join(', '));
  // Each file says its chart as the page heads it, with its share or instance type, never a
  // number (issue #34, fresh-eyes walk: `occupancy-1.png`, `occupancy-2.png`).
  const files = items.map((i) => i.file);
  assert.equal(new Set(files).size, files.length, files.join(', '));
  for (const f of files) {
    assert.match(f, /^(allocation-vs-consumption|cluster-occupancy|completion-time|interruption-cost|timeline|useful-work-allocation-or-borrowed)(-|$)/, f);
    assert.doesNotMatch(f, /-\d+$/, f);
  }
  assert.ok(files.includes('cluster-occupancy-ml-g5-xlarge') || files.includes('cluster-occupancy'), files.join(', '));
  // The menu lists the canvases in the page's order.
  const canvases = page.locator('[data-testid^="chart-"] canvas');
  for (const [i, { testid, file }] of items.entries()) {
    const canvas = canvases.nth(i);
    const panelShare = await canvas.evaluate((c) => {
      const chart = c.closest('[data-testid^="chart-"]');
      const panel = c.closest('[data-share]');
      return panel && chart.contains(panel) ? panel.dataset.share : null;
    });
    const share = shares.find((s) => s.name === panelShare);
    const box = await canvas.evaluate((c) => {
      const r = c.getBoundingClientRect();
      return { width: r.width, height: r.height };
    });
    const png = await downloadFromFilesMenu(page, testid);
    assert.match(png.name, new RegExp(`-${file}\\.png$`));
    const { width, height } = pngSize(png.bytes);
    assert.equal(width, Math.round(box.width * 2), `${file}: ${width} px wide for a ${box.width} px chart`);
    // Title band (~130 px) above and a legend band (>= 80 px) below the 2x chart.
    const chartHeight = Math.round(box.height * 2);
    assert.ok(height >= chartHeight + 200, `${file}: ${height} px high for a ${chartHeight} px chart`);
    // The legend band holds a swatch of each of its shares (a panel: its own share only).
    const legend = share ? [share] : shares;
    const others = shares.filter((s) => !legend.includes(s));
    // The legend band: below the chart, which is below a ~127 px title band.
    const band = height - chartHeight - 130;
    const counts = await bottomColours(page.context(), png.bytes, band, [...legend, ...others].map((s) => s.colour));
    legend.forEach((s, i) => assert.ok(counts[i] >= 300, `${file}: legend swatch of ${s.name} (${counts[i]} px)`));
    others.forEach((s, i) =>
      assert.equal(counts[legend.length + i], 0, `${file}: no swatch of ${s.name} in a panel of ${share?.name}`),
    );
  }
  // The page's canvases still draw at the screen's pixel ratio.
  const canvas = await page.locator('[data-testid="chart-occupancy"] canvas').first().evaluate((c) => ({
    backing: c.width,
    css: c.getBoundingClientRect().width,
  }));
  assert.equal(canvas.backing, Math.round(canvas.css));
  assert.deepEqual(problems, []);
});
