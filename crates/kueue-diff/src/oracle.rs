//! The reference harness (`oracle/kueue`) as one long-lived process: a scenario per line
//! in, Kueue's answer per line out.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;

use crate::decisions::{self, Decision};

/// Where the harness binary is: `$QUOTALAB_KUEUE_ORACLE`, else `oracle/kueue/bin/kueue-oracle`
/// in the repository (`./run kueue-oracle` builds it there).
pub fn binary() -> PathBuf {
    if let Some(p) = std::env::var_os("QUOTALAB_KUEUE_ORACLE") {
        return PathBuf::from(p);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../oracle/kueue/bin/kueue-oracle")
}

pub struct Oracle {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// After an answer that Kueue's cycles did not settle: the instant (ms) and Kueue's
    /// decisions before it, which settled and can be compared.
    pub unsettled: Option<(i64, Vec<Decision>)>,
}

/// Kueue's answer to one scenario.
pub struct Answer {
    pub kueue_version: String,
    pub events: Vec<Value>,
    pub decisions: Vec<Decision>,
}

impl Oracle {
    pub fn start() -> Result<Oracle, String> {
        let bin = binary();
        let mut child = Command::new(&bin)
            .arg("--lines")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the Kueue reference {}: {e} (build it with ./run kueue-oracle --build)", bin.display()))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Oracle {
            child,
            input,
            output,
            unsettled: None,
        })
    }

    /// Replays one scenario (explicit jobs, see [`crate::expand`]).
    pub fn ask(&mut self, scenario: &Value) -> Result<Answer, String> {
        let line = serde_json::to_string(scenario).map_err(|e| e.to_string())?;
        writeln!(self.input, "{line}").map_err(|e| format!("the Kueue reference stopped: {e}"))?;
        self.input.flush().map_err(|e| e.to_string())?;
        let mut answer = String::new();
        let n = self
            .output
            .read_line(&mut answer)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the Kueue reference stopped without an answer".into());
        }
        let v: Value = serde_json::from_str(&answer)
            .map_err(|e| format!("the Kueue reference answered {answer:?}: {e}"))?;
        self.unsettled = None;
        if let Some(e) = v["error"].as_str() {
            if v["not_settled_at_s"].is_number() {
                let before = v["events"].as_array().map(Vec::as_slice).unwrap_or(&[]);
                self.unsettled = Some((
                    decisions::ms(&v["not_settled_at_s"]),
                    decisions::from_events(before),
                ));
            }
            return Err(e.to_string());
        }
        let events = v["events"].as_array().cloned().unwrap_or_default();
        Ok(Answer {
            kueue_version: v["kueue_version"].as_str().unwrap_or("").to_string(),
            decisions: decisions::from_events(&events),
            events,
        })
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
