//! `a2a send` (SendMessage: the task or message the agent answers) and `a2a stream`
//! (SendStreamingMessage: each event as it arrives). The message is the text, then each `--file`
//! as a part of bytes and each `--data` as a data part.

use std::io::IsTerminal as _;
use std::time::{SystemTime, UNIX_EPOCH};

use a2a_types::v1::{
    Message, Part, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
};

use super::args::SendArgs;
use super::connect::{block_on, connect, failure};
use super::output::Printer;
use super::{outcome, tasks};
use crate::failure::Failure;

/// `a2a send`: prints the answer; the exit status follows the task's state.
pub fn send(args: &SendArgs) -> Result<Vec<u8>, Failure> {
    let request = request(args)?;
    block_on(async {
        let client = connect(&args.agent).await?;
        let mut printer = Printer::new(args.agent.json);
        let progress = Progress::show(!printer.json(), &client);
        let answer = client.send_message(request).await;
        drop(progress);
        let answer = answer.map_err(failure)?;
        if printer.json() {
            printer.json_line(&answer)?;
        }
        match &answer {
            SendMessageResponse::Task(task) => {
                if !printer.json() {
                    printer.task(task, false)?;
                }
                outcome(&task.id, task.status.state)
            }
            SendMessageResponse::Message(message) => {
                if !printer.json() {
                    printer.lines(&super::output::message_lines(message, ""))?;
                }
                Ok(Vec::new())
            }
            _ => Ok(Vec::new()),
        }
    })
}

/// `a2a stream`: prints each event as it arrives; the exit status follows the task's last state.
pub fn stream(args: &SendArgs) -> Result<Vec<u8>, Failure> {
    if args.return_immediately {
        return Err(Failure::usage(
            "--return-immediately: only `a2a send` takes it (a stream shows the task as it goes)",
        ));
    }
    let request = request(args)?;
    block_on(async {
        let client = connect(&args.agent).await?;
        let events = client
            .send_streaming_message(request)
            .await
            .map_err(failure)?;
        tasks::print_stream(events, &mut Printer::new(args.agent.json)).await
    })
}

/// A line on stderr while `send` waits for the agent's answer, when stderr is a terminal (never in
/// a pipe or with `--json`); erased when dropped.
struct Progress(bool);

impl Progress {
    fn show(wanted: bool, client: &a2a_client::A2aClient) -> Progress {
        let shown = wanted && std::io::stderr().is_terminal();
        if shown {
            eprint!(
                "waiting for {} over {}…\r",
                client.card().name,
                client.binding()
            );
        }
        Progress(shown)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.0 {
            // Erase the line: carriage return, then clear to its end.
            eprint!("\r\x1b[K");
        }
    }
}

/// The request the options describe; a message needs at least one part.
fn request(args: &SendArgs) -> Result<SendMessageRequest, Failure> {
    let mut parts = Vec::new();
    if let Some(text) = &args.text {
        parts.push(Part::text(text.clone()));
    }
    for path in &args.files {
        let bytes = std::fs::read(path)
            .map_err(|e| Failure::input(format!("--file {path}: cannot read it: {e}")))?;
        let filename = std::path::Path::new(path)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.clone());
        parts.push(Part::raw(bytes, media_type(path)).filename(filename));
    }
    for (index, data) in args.data.iter().enumerate() {
        let value: serde_json::Value = serde_json::from_str(data)
            .map_err(|e| Failure::usage(format!("--data (number {}): not JSON: {e}", index + 1)))?;
        parts.push(Part::data(value));
    }
    if parts.is_empty() {
        return Err(Failure::usage(
            "TEXT: the message needs a text, a --file or a --data",
        ));
    }
    let id = args.message_id.clone().unwrap_or_else(fresh_message_id);
    let mut message = Message::user(id, parts);
    message.task_id = args.task_id.clone();
    message.context_id = args.context_id.clone();
    let configuration = args.return_immediately.then(|| SendMessageConfiguration {
        return_immediately: Some(true),
        ..Default::default()
    });
    Ok(SendMessageRequest {
        message,
        configuration,
        ..Default::default()
    })
}

/// A message id no other run of the command uses: the process id and the time.
fn fresh_message_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("a2a-cli-{}-{nanos:x}", std::process::id())
}

/// The media type of a file, by its extension (`application/octet-stream` when unknown).
fn media_type(path: &str) -> &'static str {
    let extension = std::path::Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "txt" | "text" => "text/plain",
        "md" => "text/markdown",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_follow_extensions() {
        assert_eq!(media_type("a/b.PDF"), "application/pdf");
        assert_eq!(media_type("notes"), "application/octet-stream");
    }
}
