// A sweep worker of the Explore panel (src/explore/): runs the Explore wasm
// (quotalab-explore.js, the lazily loaded third wasm). The panel's first message is
// {kind: 'boot', module: WebAssembly.Module} (compiled once on the page and shared by every
// worker); the wasm's `explore_worker` then installs its handler and posts its first postcard
// message, FromWorker::Ready (src/explore/protocol.rs). Everything after this file is
// postcard bytes; this file speaks plain objects because it runs before the wasm.
// Named quotalab-explore-* so that tests/wasm-size.sh counts it in the Explore part.
self.onmessage = async (event) => {
  const { kind, module } = event.data ?? {};
  if (kind !== 'boot') return;
  self.onmessage = null;
  try {
    const tools = await import('./quotalab-explore.js');
    await tools.default({ module_or_path: module });
    tools.explore_worker();
  } catch (e) {
    // The panel then runs the sweep on the page's thread (src/explore/pool.rs).
    postMessage({ kind: 'unavailable', message: `the sweep worker could not start: ${e}` });
  }
};
