//! The one kind of error the tool reports: a one-line message and the exit status that goes with it.

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
