// Starts the simulation worker (src/worker/), a module worker running the page's own wasm:
// the page's first message is {kind: 'boot', module: WebAssembly.Module, js: address of the
// wasm-bindgen glue} (see www/loader.js). Starting the module runs its `main` (src/main.rs),
// which sees a worker scope, installs the worker's message handler and posts its first
// postcard message, Response::Ready (src/worker/protocol.rs); the page sends nothing else
// before that. Everything after this file is postcard bytes; this file speaks plain objects
// because it runs before the wasm.
self.onmessage = async (event) => {
  const { kind, module, js } = event.data ?? {};
  if (kind !== 'boot') return;
  self.onmessage = null;
  try {
    const bindings = await import(js);
    await bindings.default({ module_or_path: module });
  } catch (e) {
    // The page then simulates on its own thread (src/worker/page.rs, Reply::Unavailable).
    postMessage({ kind: 'unavailable', message: `the simulation worker could not start: ${e}` });
  }
};
