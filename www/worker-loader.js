// Starts an engine worker (crates/engine-worker): a module worker running the engine's own
// wasm. The page's first message is {kind: 'boot', module: WebAssembly.Module, js: address of
// the engine's wasm-bindgen glue} (www/loader.js compiled the module once, at load), or
// {kind: 'boot', error} when it could not. Starting the module runs its `main`, which
// installs the worker's message handler and posts its first postcard message,
// Response::Ready (crates/engine-worker/src/protocol.rs); the page sends nothing else before
// that. Everything after this file is postcard bytes; this file speaks plain objects
// because it runs before the wasm.
self.onmessage = async (event) => {
  const { kind, module, js, error } = event.data ?? {};
  if (kind !== 'boot') return;
  self.onmessage = null;
  try {
    if (error !== undefined) throw error;
    const bindings = await import(js);
    await bindings.default({ module_or_path: module });
  } catch (e) {
    // The page then says the simulator cannot run (src/worker/page.rs, Reply::Unavailable).
    postMessage({ kind: 'unavailable', message: `the engine worker could not start: ${e}` });
  }
};
