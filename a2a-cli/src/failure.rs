//! The one kind of error the tool reports: a one-line message and the exit status that goes with it.
//!
//! The exit statuses scripts can rely on ([`EXIT_STATUSES`], printed by `a2a --help`):
//! 0 success, 1 bad input (a file, stdin, the agent's card or its signatures), 2 usage,
//! 3 the agent answered with an A2A error, 4 the agent could not be reached or its answer not
//! read, 5 the task ended failed, canceled or rejected, 6 the task waits for the caller
//! (input-required, auth-required), 7 the agent failed a check (`a2a conformance`: a MUST check;
//! `a2a load`: an error or a lost task).

use std::process::ExitCode;

/// Why the command failed, as the single line printed after `error: `.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    /// The input (stdin), or writing the output, failed: exit status 1.
    pub fn input(message: impl Into<String>) -> Self {
        Self {
            code: 1,
            message: message.into(),
        }
    }

    /// The command line is wrong: exit status 2, as for clap's own usage errors.
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            code: 2,
            message: message.into(),
        }
    }

    /// The agent answered the call with an A2A error: exit status 3.
    pub fn agent(message: impl Into<String>) -> Self {
        Self {
            code: 3,
            message: message.into(),
        }
    }

    /// The agent could not be reached, or its answer could not be read: exit status 4.
    pub fn transport(message: impl Into<String>) -> Self {
        Self {
            code: 4,
            message: message.into(),
        }
    }

    /// The task ended without success (failed, canceled, rejected): exit status 5.
    pub fn task_ended(message: impl Into<String>) -> Self {
        Self {
            code: 5,
            message: message.into(),
        }
    }

    /// The task waits for the caller (input-required, auth-required): exit status 6.
    pub fn task_waits(message: impl Into<String>) -> Self {
        Self {
            code: 6,
            message: message.into(),
        }
    }

    /// The agent broke a MUST of the conformance run, or lost tasks or answered errors under load:
    /// exit status 7.
    pub fn nonconformant(message: impl Into<String>) -> Self {
        Self {
            code: 7,
            message: message.into(),
        }
    }

    /// The word the stderr line starts with: `waiting` for a task that waits for the caller (not
    /// an error of the command), else `error`.
    pub fn label(&self) -> &'static str {
        if self.code == 6 { "waiting" } else { "error" }
    }

    /// The message on a single line: line breaks inside it (from an error text we do not control)
    /// become spaces, and a long one keeps only its start and end (serde's messages quote the
    /// offending value whole, however large; `a2a_types::json::bounded`).
    pub fn line(&self) -> String {
        let line = self
            .message
            .split(['\r', '\n'])
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        a2a_types::json::bounded(&line)
    }

    /// The process exit status.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.code)
    }
}

/// The exit statuses, as `a2a --help` shows them.
pub const EXIT_STATUSES: &str = "\
Exit status:
  0  success: the call was answered (for send, stream, subscribe and get: the task completed, or is
     still submitted or working)
  1  bad input: a file or stdin, or the agent's card is not valid or no signature verifies (--jwks)
  2  usage: the command line is wrong, or asks what the agent's binding or version cannot carry
  3  the agent answered with an A2A error (task not found, not cancelable, ...)
  4  transport: the agent could not be reached, timed out, or its answer could not be read
  5  the task ended failed, canceled or rejected
  6  the task waits for the caller: input-required or auth-required (send again with --task ID)
  7  the agent failed a check: a MUST check of `a2a conformance`, an error or a lost task of `a2a load`";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_joins_line_breaks() {
        let failure = Failure::input("first\n  second\r\n\nthird");
        assert_eq!(failure.line(), "first second third");
    }

    #[test]
    fn a_long_message_keeps_its_start_and_end() {
        let quoted = "x".repeat(1_000_000);
        let failure = Failure::input(format!(
            "invalid JSON for Task at `status`: invalid type: string \"{quoted}\", expected TaskStatus at line 1 column 1000030"
        ));
        let line = failure.line();
        assert!(line.len() < 500, "{} bytes", line.len());
        assert!(
            line.starts_with("invalid JSON for Task at `status`: invalid type: string \"xxx"),
            "{line}"
        );
        assert!(
            line.ends_with("expected TaskStatus at line 1 column 1000030"),
            "{line}"
        );
        assert!(line.contains("bytes left out"), "{line}");
    }
}
