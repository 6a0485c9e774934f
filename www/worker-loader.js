// Starts the simulation worker (src/worker.rs), a module worker running the page's own wasm:
// the page's first message is ["boot", -1, WebAssembly.Module, address of the wasm-bindgen
// glue] (see www/loader.js). Starting the module runs its `main` (src/main.rs), which sees a
// worker scope, installs the worker's message handler and posts ["ready"]; the page sends
// nothing else before that.
self.onmessage = async (event) => {
  const [kind, , module, js] = Array.isArray(event.data) ? event.data : [];
  if (kind !== 'boot') return;
  self.onmessage = null;
  try {
    const bindings = await import(js);
    await bindings.default({ module_or_path: module });
  } catch (e) {
    // The page then simulates on its own thread (src/worker.rs, Reply::Unavailable).
    postMessage(['unavailable', -1, `the simulation worker could not start: ${e}`]);
  }
};
