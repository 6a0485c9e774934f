// Trunk's post_build hook (Trunk.toml): minifies wasm-bindgen's JS glue in release builds and
// updates index.html's integrity hashes to match.
//
// Trunk's own JS minifier (minify-js) refuses the glue of wasm-bindgen 0.2.130
// ("Failed to minify JS: RequiredTokenNotFound(Identifier) [token=Some(KeywordDefault)]") and
// ships it as written: 68 KB raw, 11.3 KB gzip for the page's glue. Terser (npm, no
// download at run time) takes it to 8.8 KB. Only the glue files (`quotalab-*.js`) are
// touched; the hand-written loaders are left as Trunk wrote them.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('minify-glue: TRUNK_STAGING_DIR is not set (run by Trunk only)');
  process.exit(1);
}
if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const indexPath = join(dir, 'index.html');
let index = readFileSync(indexPath, 'utf8');
for (const name of readdirSync(dir)) {
  if (!/^quotalab-.*\.js$/.test(name) || name.endsWith('_loader.js')) continue;
  const path = join(dir, name);
  const code = readFileSync(path, 'utf8');
  const out = await minify(code, { module: true, compress: true, mangle: true });
  if (!out.code) throw new Error(`minify-glue: terser returned nothing for ${name}`);
  writeFileSync(path, out.code);
  index = index.split(sri(code)).join(sri(out.code));
}
writeFileSync(indexPath, index);
