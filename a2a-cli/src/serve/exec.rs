//! `a2a serve --exec CMD`: a command run per message (`sh -c CMD`). The message's text goes to its
//! standard input (which is then closed); what it writes on its standard output comes back as the
//! chunks of one artifact, `output`, each read as it arrives (a chunk never splits a UTF-8
//! character); its exit status ends the task: 0 completed, anything else failed, the status message
//! naming the status and the end of its standard error. Canceling the task kills the command, and
//! every process it started: the command leads a process group of its own, killed whole.

use std::process::Stdio;

use a2a_protocol::errors::{Error, ErrorKind};
use a2a_server::{AgentEvent, AgentExecutor, EventSink, RequestContext, async_trait};
use a2a_types::v1::{Artifact, Part};
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWriteExt as _};
use tokio::process::{Child, Command};

/// The artifact the command's output streams into.
const ARTIFACT_ID: &str = "output";
/// The most of the command's standard error a failed task's status message quotes (its end).
const STDERR_TAIL: usize = 2048;

/// The agent running one command per message.
pub struct Exec {
    command: String,
}

impl Exec {
    /// Runs `command` with `sh -c` for each message.
    pub fn new(command: &str) -> Self {
        Exec {
            command: command.to_owned(),
        }
    }

    fn spawn(&self) -> Result<Running, Error> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // A group of its own, so that killing it reaches what the shell started (`sh -c "a | b"`).
        #[cfg(unix)]
        command.process_group(0);
        let child = command.spawn().map_err(|e| {
            Error::bare(
                ErrorKind::Internal,
                format!("cannot run `{}`: {e}", self.command),
            )
        })?;
        Ok(Running {
            child,
            ended: false,
        })
    }
}

#[async_trait]
impl AgentExecutor for Exec {
    async fn execute(&self, context: RequestContext, events: EventSink) -> Result<(), Error> {
        let mut running = self.spawn()?;
        let child = &mut running.child;
        events.working().await?;
        let input = context.message.text();
        let stdin = child.stdin.take();
        // Written beside the reading, so a command that prints before it has read all of its input
        // never blocks both sides.
        let writer = tokio::spawn(async move {
            if let Some(mut stdin) = stdin {
                let _ = stdin.write_all(input.as_bytes()).await;
                let _ = stdin.shutdown().await;
            }
        });
        let stderr = child.stderr.take().map(|stderr| tokio::spawn(tail(stderr)));
        let Some(stdout) = child.stdout.take() else {
            return Err(Error::bare(
                ErrorKind::Internal,
                "the command has no standard output",
            ));
        };
        let streamed = tokio::select! {
            streamed = stream_output(stdout, &events) => streamed,
            () = events.canceled() => return Ok(()),
        };
        streamed?;
        let status = tokio::select! {
            status = child.wait() => status,
            () = events.canceled() => return Ok(()),
        }
        .map_err(|e| Error::bare(ErrorKind::Internal, format!("waiting for the command: {e}")))?;
        running.ended = true;
        writer.abort();
        let error_output = match stderr {
            Some(handle) => handle.await.unwrap_or_default(),
            None => String::new(),
        };
        if status.success() {
            events.complete().await?;
        } else {
            let code = status
                .code()
                .map_or_else(|| "a signal".to_owned(), |code| format!("status {code}"));
            let mut why = format!("the command exited with {code}");
            if !error_output.trim().is_empty() {
                why.push_str(": ");
                why.push_str(error_output.trim());
            }
            events.fail(why).await?;
        }
        Ok(())
    }
}

/// The command while it runs. Dropped before it ended (a cancel, a failure, the server stopping),
/// it kills the command's whole process group.
struct Running {
    child: Child,
    /// The command was waited for: its process id may belong to another process by now.
    ended: bool,
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        #[cfg(unix)]
        if let Some(group) = self.child.id().and_then(|id| i32::try_from(id).ok()) {
            // SAFETY: kill(2) only sends a signal; the negative id names the group the command
            // leads (`process_group(0)`), which still exists: the command was not waited for.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.start_kill();
    }
}

/// Sends each read of `stdout` as a chunk of the artifact as it arrives, then a last, empty chunk
/// marking the artifact complete (the end is known only when the output closes).
async fn stream_output(
    mut stdout: impl AsyncRead + Unpin,
    events: &EventSink,
) -> Result<(), Error> {
    let mut buffer = vec![0u8; 16 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    let mut sent_any = false;
    loop {
        let read = stdout.read(&mut buffer).await.map_err(|e| {
            Error::bare(
                ErrorKind::Internal,
                format!("reading the command's output: {e}"),
            )
        })?;
        if read == 0 {
            break;
        }
        pending.extend_from_slice(&buffer[..read]);
        let text = take_complete_utf8(&mut pending);
        if text.is_empty() {
            continue;
        }
        send_chunk(events, [Part::text(text)], sent_any, false).await?;
        sent_any = true;
    }
    // Bytes that never became a character (the output ended inside one, or is not UTF-8), or no
    // part at all: the closing chunk only says the artifact is complete.
    let rest = String::from_utf8_lossy(&pending).into_owned();
    let closing = (!rest.is_empty()).then(|| Part::text(rest));
    if closing.is_some() || sent_any {
        send_chunk(events, closing, sent_any, true).await?;
    }
    Ok(())
}

async fn send_chunk(
    events: &EventSink,
    part: impl IntoIterator<Item = Part>,
    append: bool,
    last_chunk: bool,
) -> Result<(), Error> {
    let artifact = Artifact::new(ARTIFACT_ID, part).name(ARTIFACT_ID);
    events
        .send(AgentEvent::Artifact {
            artifact,
            append,
            last_chunk,
        })
        .await?;
    Ok(())
}

/// The text of `pending` up to its last whole UTF-8 character (bytes that are not UTF-8 at all
/// become U+FFFD); an unfinished character at the end stays in `pending` for the next read.
fn take_complete_utf8(pending: &mut Vec<u8>) -> String {
    let keep = match std::str::from_utf8(pending) {
        Ok(_) => 0,
        // `error_len() == None`: the input ends inside a character that may still complete.
        Err(error) if error.error_len().is_none() => pending.len() - error.valid_up_to(),
        Err(_) => 0,
    };
    let rest = pending.split_off(pending.len() - keep);
    let text = String::from_utf8_lossy(pending).into_owned();
    *pending = rest;
    text
}

/// The end of a stream's text, at most [`STDERR_TAIL`] bytes (on a character boundary).
async fn tail(mut stream: impl AsyncRead + Unpin) -> String {
    let mut all = Vec::new();
    let _ = stream.read_to_end(&mut all).await;
    let text = String::from_utf8_lossy(&all);
    let mut start = text.len().saturating_sub(STDERR_TAIL);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text[start..].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_between_reads_waits_for_its_end() {
        let mut pending = "añ".as_bytes()[..2].to_vec();
        assert_eq!(take_complete_utf8(&mut pending), "a");
        assert_eq!(pending, [0xC3]);
        pending.push(0xB1);
        assert_eq!(take_complete_utf8(&mut pending), "ñ");
        assert!(pending.is_empty());
    }

    #[test]
    fn bytes_that_are_not_utf8_become_replacement_characters() {
        let mut pending = vec![b'a', 0xFF, b'b'];
        assert_eq!(take_complete_utf8(&mut pending), "a\u{FFFD}b");
        assert!(pending.is_empty());
    }
}
