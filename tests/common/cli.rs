//! The CLI binary run as a user runs it: arguments, then standard input.

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `syzygy-web` with `args`, writes `input` to its standard input
/// and waits for it.
pub fn run_cli(args: &[&OsStr], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn CLI");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write input");
    child.wait_with_output().expect("CLI output")
}
