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
const bindings = await import(js);
const module = await compile(new URL(tag.dataset.quotalabWasm, document.baseURI).href);
// The simulation worker (src/worker/, www/worker-loader.js) runs this same module: the page
// hands it the compiled module and the glue's address, so the worker starts without a second
// download or compile. Set before the app starts, which may start the worker at once.
globalThis.quotalabBoot = { module, js };
// The page's rarely used tools (the configuration and CSV trace imports: src/io/tools.rs) are
// a second wasm, `quotalab-tools.js`, imported only when one is first opened.
globalThis.quotalabImport = (url) => import(new URL(url, document.baseURI).href);
const wasm = await bindings.default({ module_or_path: module });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
