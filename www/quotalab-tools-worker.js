// Makes a report (SPEC 14) off the page's thread (src/io/files.rs, `export_report`), so a
// large scenario does not freeze the page: runs the tools wasm (quotalab-tools.js) on the
// message it is sent, {text, compare} (the scenario text; whether the report holds the
// comparison of SPEC 9.1), and answers {kind: 'report', html}, {kind: 'problems', lines}
// (the scenario is invalid) or {kind: 'failed', message} (the page then makes the report
// on its own thread). Named quotalab-tools-* so that tests/wasm-size.sh counts it in the
// tools part.
self.onmessage = async (event) => {
  self.onmessage = null;
  let tools;
  try {
    tools = await import('./quotalab-tools.js');
    await tools.default();
  } catch (e) {
    postMessage({ kind: 'failed', message: `the report worker could not start: ${e}` });
    return;
  }
  try {
    const { text, compare } = event.data ?? {};
    postMessage({ kind: 'report', html: tools.make_report(String(text ?? ''), compare === true) });
  } catch (e) {
    if (Array.isArray(e)) postMessage({ kind: 'problems', lines: e.map(String) });
    else postMessage({ kind: 'failed', message: String(e?.message ?? e) });
  }
};
