//! What the `quotasim` test binaries share: spawning the binary and capturing its output.

#![allow(dead_code)] // each test binary uses its own part

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_quotasim");

/// The Philly trace (`shared/traces/philly-adaptdl.csv`), beside the repository.
pub const PHILLY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/traces/philly-adaptdl.csv"
);

/// `quotasim trace import` of the Philly trace with its columns (submit, duration, GPUs,
/// share by cluster), then `extra` options; `None` (with a note) when the trace is absent.
pub fn philly_import(extra: &[&str]) -> Option<Out> {
    if !Path::new(PHILLY).is_file() {
        eprintln!("note: {PHILLY} is absent; skipping");
        return None;
    }
    let mut args = vec![
        "trace",
        "import",
        PHILLY,
        "--submit",
        "timestamp",
        "--duration",
        "duration",
        "--gpus",
        "num_gpus",
        "--share",
        "cluster",
    ];
    args.extend_from_slice(extra);
    let out = quotasim(&args, None);
    assert!(
        !out.stderr.contains("panicked"),
        "quotasim {args:?} panicked:\n{}",
        out.stderr
    );
    Some(out)
}

/// A scenario of the engine's golden set.
pub fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/tests/golden")
        .join(name)
}

/// What a run of `quotasim` did.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let head = |s: &str| s.chars().take(2000).collect::<String>();
        write!(
            f,
            "exit {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.code,
            head(&self.stdout),
            head(&self.stderr)
        )
    }
}

/// Runs `quotasim ARGS` with `stdin` (or no input), with backtraces enabled so that a panic
/// would show. The input is written from a separate thread, so that a large input cannot
/// deadlock against a full stdout; a binary that exits before reading all of it is not an
/// error here (garbage input is refused early).
pub fn quotasim(args: &[&str], stdin: Option<&[u8]>) -> Out {
    quotasim_in(None, args, stdin)
}

/// [`quotasim`] run in directory `dir` (file names in its problems are then the short ones).
pub fn quotasim_in(dir: Option<&Path>, args: &[&str], stdin: Option<&[u8]>) -> Out {
    let mut cmd = Command::new(BIN);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quotasim starts");
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let out = child.wait_with_output().expect("quotasim runs");
    if let Some(w) = writer {
        w.join().unwrap();
    }
    Out {
        code: out
            .status
            .code()
            .expect("quotasim exits (not killed by a signal)"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
