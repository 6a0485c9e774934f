// Starts the simulation worker (src/bin/worker.rs, src/worker.rs): the wasm-bindgen glue
// `worker.js` (Trunk, data-type="worker") defines `wasm_bindgen`; its module's `main` then
// posts ["ready"]. Replaces Trunk's loader shim, which uses wasm-bindgen's deprecated
// positional argument (a console warning in every worker).
importScripts('./worker.js');
wasm_bindgen({ module_or_path: './worker_bg.wasm' }).catch((e) => {
  // The page then simulates on its own thread (src/worker.rs, Reply::Unavailable).
  postMessage(['unavailable', -1, `the simulation worker could not start: ${e}`]);
});
