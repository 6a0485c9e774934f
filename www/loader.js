// Starts Quota Lab: Trunk's default loader, as a file instead of an inline script, so that the
// page's Content-Security-Policy (index.html) allows only the app's own scripts. Trunk.toml's
// `pattern_script` writes this script's tag with the hashed names of the wasm-bindgen glue and
// of the wasm module in data attributes.

// The CSP's `style-src 'self'` blocks `setAttribute('style', ...)` but not the same styles set
// through the CSSOM (`element.style`). Leptos sets `style="..."` attributes with setAttribute,
// and plotters measures chart text with a `<span>` styled that way (the measurement is wrong
// when the style is blocked). Route those calls through the CSSOM: the same styles, applied,
// without allowing inline style attributes in markup.
const setAttribute = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (name, value) {
  if (typeof name === 'string' && name.toLowerCase() === 'style' && this.style) {
    this.style.cssText = String(value);
    return undefined;
  }
  return setAttribute.call(this, name, value);
};

async function compile(url) {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // A server without the application/wasm type.
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

const tag = document.querySelector('script[data-quotalab-js]');
const js = new URL(tag.dataset.quotalabJs, document.baseURI).href;
// The engine (crates/engine-worker) is a wasm of its own, compiled for speed, that runs only
// in workers (src/worker/): its download and compile start now, beside the page's, and every
// worker gets the compiled module, so a worker costs no download and no compile.
const engineJs = new URL('quotalab-engine.js', document.baseURI).href;
const engine = compile(new URL('quotalab-engine_bg.wasm', document.baseURI).href);
engine.catch(() => {});
globalThis.quotalabStartEngine = () => {
  const worker = new Worker(new URL('worker-loader.js', document.baseURI), { type: 'module' });
  engine.then(
    (module) => worker.postMessage({ kind: 'boot', module, js: engineJs }),
    (e) => worker.postMessage({ kind: 'boot', error: String(e) }),
  );
  return worker;
};
const bindings = await import(js);
const module = await compile(new URL(tag.dataset.quotalabWasm, document.baseURI).href);
const wasm = await bindings.default({ module_or_path: module });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
