// Starts the simulation worker (src/bin/worker.rs, src/worker.rs). `worker.js` is the
// wasm-bindgen glue Trunk builds for it (data-type="worker"); the module's `main` posts
// ["ready"]. This replaces Trunk's loader shim (which passes wasm-bindgen a deprecated
// positional argument) so that the compiled module can be handed back to the page: the page
// starts the next worker (after a Cancel or an abandoned run) from it with "#module" in the
// URL, and that worker starts without a fetch or a compile, with the code V8 has already
// optimised.
importScripts('./worker.js');

async function compile() {
  try {
    return await WebAssembly.compileStreaming(fetch('./worker_bg.wasm'));
  } catch {
    // A server without the application/wasm type.
    return WebAssembly.compile(await (await fetch('./worker_bg.wasm')).arrayBuffer());
  }
}

async function start(module) {
  try {
    module ??= await compile();
    await wasm_bindgen({ module_or_path: module });
    postMessage(['module', -1, module]);
  } catch (e) {
    // The page then simulates on its own thread (src/worker.rs, Reply::Unavailable).
    postMessage(['unavailable', -1, `the simulation worker could not start: ${e}`]);
  }
}

if (self.location.hash === '#module') {
  // The page's first message is the module (the worker's own handler replaces this one).
  self.onmessage = (event) => {
    if (Array.isArray(event.data) && event.data[0] === 'module') start(event.data[2]);
  };
} else {
  start();
}
