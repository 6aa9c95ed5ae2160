//! The behaviour table: what an agent does with a message, chosen by a prefix (the convention conformance kits use, so
//! an outside test can drive every path): the prefix of its `messageId`, or, when that names no
//! behaviour, the prefix of its first text part (the convention of the draft conformance format
//! ACTS). Where both name one, the `messageId` wins.
//!
//! | prefix | the agent |
//! |---|---|
//! | `tck-complete-task` | completes the task with an agent message "Hello from TCK" |
//! | `tck-artifact-text` / `-file` / `-file-url` / `-data` | completes the task with one artifact: text "Generated text content"; a file part `output.txt` (`text/plain`, bytes); a file URL `https://example.com/output.txt` named `output.txt` (`text/plain`); data `{"key": "value", "count": 42}` |
//! | `tck-message-response` | answers with a message (no task) whose text is "Direct message response" |
//! | `tck-input-required` | moves the task to input-required; the next message completes it, unless it names `tck-input-required` again |
//! | `tck-multi-turn` | moves the task to input-required, and back there after every further message, until one whose text is `done` (or that names `tck-complete-task`) completes it |
//! | `tck-auth-required` | moves the task to auth-required |
//! | `tck-reject-task` | rejects the task with "rejected" |
//! | `tck-task-failure` | fails the task with the message "Task failed: simulated failure" |
//! | `tck-long-running` | working, waits [`Delays::long_running`], one text artifact ([`LONG_RUNNING_OUTPUT`]), completed |
//! | `tck-cancel` | working until canceled |
//! | `tck-stream-001`, `tck-stream-003`, `tck-stream-ordering-001`, `tck-stream-artifact-text`, `tck-stream-basic` | working, one text artifact ("Stream hello from TCK", "Stream task lifecycle", "Ordered output", "Streamed text content", "Stream basic output"), completed |
//! | `tck-stream-002` | a single completed status |
//! | `tck-stream-artifact-file` | working, a file artifact `output.txt` (`text/plain`), completed |
//! | `tck-stream-artifact-chunked`, `tck-stream-chunked` | working, artifact chunk "chunk-1 " then a last chunk "chunk-2" (append), completed |
//! | `test-resubscribe-message-id` | working, waits [`Delays::resubscribe`], completed |
//! | `test-slow-chunks` | working, then one text artifact in [`SLOW_CHUNKS`] chunks `chunk-1 `, `chunk-2 `, … (appended), each after [`SLOW_CHUNK_PAUSE`], completed: a stream long enough to cut and resume, whose every event says where it belongs |
//! | `load-chunks` | working, one text artifact in [`LOAD_CHUNKS`] chunks `chunk-1 `, `chunk-2 `, … (appended, no pause), completed: the store benchmark's streamed task |
//! | `load-progress` | working, [`PROGRESS_UPDATES`] versions of one text artifact `progress` (each replaces the last; [`PROGRESS_TEXT_BYTES`] characters), completed: the load test's slow readers (many events, a task that does not grow) |
//!
//! A message sent to an existing task (`taskId` set) that waits for input follows
//! [`continue_plan`]: the task a `tck-input-required` started completes unless the message names
//! `tck-input-required` again (the conformance kit's `messageId` convention for one more turn); the
//! task a `tck-multi-turn` started asks for input again until the message's text is `done` (the
//! ACTS convention) or the message names `tck-complete-task` (the kit's).
//! The plan is the same for `SendMessage` and `SendStreamingMessage`: one streams the steps, the
//! other answers with the task once they are done.

use std::time::Duration;

use a2a_types::v1::{Artifact, Message, Part, TaskState};

/// The bytes of the file part the `-file` behaviours produce.
pub const FILE_CONTENT: &[u8] = b"Generated file content";

/// The text of the artifact `tck-long-running` produces before it completes (the ACTS polling tests
/// want the completed task to hold at least one artifact).
pub const LONG_RUNNING_OUTPUT: &str = "Long-running work done";

/// The text that ends a `tck-multi-turn` conversation (compared trimmed, in any case).
pub const MULTI_TURN_DONE: &str = "done";

/// How many chunks the `load-chunks` artifact has.
pub const LOAD_CHUNKS: usize = 50;

/// How many chunks the `test-slow-chunks` artifact has.
pub const SLOW_CHUNKS: usize = 30;

/// The pause before each `test-slow-chunks` chunk (the whole task takes about 4.5 s).
pub const SLOW_CHUNK_PAUSE: Duration = Duration::from_millis(150);

/// How many artifact updates `load-progress` streams (under the in-memory store's 256 logged events
/// per task, so a reader that falls behind still finds every event in the log).
pub const PROGRESS_UPDATES: usize = 100;
/// The length of each `load-progress` artifact text.
pub const PROGRESS_TEXT_BYTES: usize = 256;

/// The text of `load-progress`'s update `index` (0-based): its number, padded to
/// [`PROGRESS_TEXT_BYTES`], so a reader can check it got every update in order.
pub fn progress_text(index: usize) -> String {
    format!("progress {index:03} ")
        .chars()
        .chain(std::iter::repeat('.'))
        .take(PROGRESS_TEXT_BYTES)
        .collect()
}

/// One step of the agent's work on a task.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// The task moves to this state, with an agent message when the text is given.
    Status(TaskState, Option<String>),
    /// The task produces (part of) an artifact.
    Artifact {
        artifact: Artifact,
        append: bool,
        last_chunk: bool,
    },
    /// The agent takes its time.
    Wait(Duration),
    /// The agent works until the task is canceled.
    UntilCanceled,
}

/// What the agent does with one message.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// Answers with a message of this text, no task.
    Reply(String),
    /// Works on a task, step by step.
    Task(Vec<Step>),
}

fn working() -> Step {
    Step::Status(TaskState::Working, None)
}

fn completed() -> Step {
    Step::Status(TaskState::Completed, None)
}

fn artifact(parts: Vec<Part>) -> Step {
    Step::Artifact {
        artifact: Artifact::new("artifact-1", parts),
        append: false,
        last_chunk: true,
    }
}

fn file_part() -> Part {
    Part::raw(FILE_CONTENT.to_vec(), "text/plain").filename("output.txt")
}

/// The delays of the behaviours that take their time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delays {
    /// How long `test-resubscribe-message-id` stays working.
    pub resubscribe: Duration,
    /// How long `tck-long-running` stays working.
    pub long_running: Duration,
}

/// Every prefix of the table, longest first among those that share a beginning.
const PREFIXES: &[&str] = &[
    "tck-complete-task",
    "tck-artifact-text",
    "tck-artifact-file-url",
    "tck-artifact-file",
    "tck-artifact-data",
    "tck-message-response",
    "tck-input-required",
    "tck-multi-turn",
    "tck-auth-required",
    "tck-reject-task",
    "tck-task-failure",
    "tck-long-running",
    "tck-cancel",
    "tck-stream-001",
    "tck-stream-002",
    "tck-stream-003",
    "tck-stream-ordering-001",
    "tck-stream-artifact-text",
    "tck-stream-artifact-file",
    "tck-stream-artifact-chunked",
    "tck-stream-basic",
    "tck-stream-chunked",
    "test-resubscribe-message-id",
    "test-slow-chunks",
    "load-chunks",
    "load-progress",
];

/// The behaviour a message names: its `messageId`'s prefix, else its first text part's.
pub fn behaviour_of(message: &Message) -> Option<&'static str> {
    let named = |text: &str| {
        PREFIXES
            .iter()
            .copied()
            .find(|prefix| text.starts_with(prefix))
    };
    named(&message.message_id).or_else(|| {
        message
            .text_parts()
            .next()
            .and_then(|text| named(text.trim_start()))
    })
}

/// The plan for a new message (`taskId` not set), by its behaviour ([`behaviour_of`]); `None`
/// when the message names none (the agent's own logic answers it).
pub fn plan(message: &Message, delays: Delays) -> Option<Plan> {
    let id = behaviour_of(message)?;
    let text_task = |text: &str| {
        Plan::Task(vec![
            working(),
            artifact(vec![Part::text(text)]),
            completed(),
        ])
    };
    // Longer prefixes first: `tck-artifact-file-url` also starts with `tck-artifact-file`.
    let plan = if id.starts_with("tck-complete-task") {
        Plan::Task(vec![
            working(),
            Step::Status(TaskState::Completed, Some("Hello from TCK".into())),
        ])
    } else if id.starts_with("tck-artifact-text") {
        Plan::Task(vec![
            working(),
            artifact(vec![Part::text("Generated text content")]),
            completed(),
        ])
    } else if id.starts_with("tck-artifact-file-url") {
        let part = Part::url("https://example.com/output.txt")
            .filename("output.txt")
            .media_type("text/plain");
        Plan::Task(vec![working(), artifact(vec![part]), completed()])
    } else if id.starts_with("tck-artifact-file") {
        Plan::Task(vec![working(), artifact(vec![file_part()]), completed()])
    } else if id.starts_with("tck-artifact-data") {
        let part = Part::data(serde_json::json!({"key": "value", "count": 42}));
        Plan::Task(vec![working(), artifact(vec![part]), completed()])
    } else if id.starts_with("tck-message-response") {
        Plan::Reply("Direct message response".into())
    } else if id.starts_with("tck-input-required") {
        ask_for_input()
    } else if id.starts_with("tck-multi-turn") {
        ask_for_more_turns()
    } else if id.starts_with("tck-reject-task") {
        Plan::Task(vec![Step::Status(
            TaskState::Rejected,
            Some("rejected".into()),
        )])
    } else if id.starts_with("tck-auth-required") {
        Plan::Task(vec![
            working(),
            Step::Status(
                TaskState::AuthRequired,
                Some("Please authenticate to continue".into()),
            ),
        ])
    } else if id.starts_with("tck-task-failure") {
        Plan::Task(vec![
            working(),
            Step::Status(
                TaskState::Failed,
                Some("Task failed: simulated failure".into()),
            ),
        ])
    } else if id.starts_with("tck-long-running") {
        Plan::Task(vec![
            working(),
            Step::Wait(delays.long_running),
            artifact(vec![Part::text(LONG_RUNNING_OUTPUT)]),
            completed(),
        ])
    } else if id.starts_with("tck-cancel") {
        Plan::Task(vec![working(), Step::UntilCanceled])
    } else if id.starts_with("tck-stream-basic") {
        text_task("Stream basic output")
    } else if id.starts_with("tck-stream-001") {
        text_task("Stream hello from TCK")
    } else if id.starts_with("tck-stream-002") {
        Plan::Task(vec![completed()])
    } else if id.starts_with("tck-stream-003") {
        text_task("Stream task lifecycle")
    } else if id.starts_with("tck-stream-ordering-001") {
        text_task("Ordered output")
    } else if id.starts_with("tck-stream-artifact-text") {
        text_task("Streamed text content")
    } else if id.starts_with("tck-stream-artifact-file") {
        Plan::Task(vec![working(), artifact(vec![file_part()]), completed()])
    } else if id.starts_with("tck-stream-artifact-chunked") || id.starts_with("tck-stream-chunked")
    {
        let chunk = |text: &str, append: bool, last_chunk: bool| Step::Artifact {
            artifact: Artifact::new("artifact-1", [Part::text(text)]),
            append,
            last_chunk,
        };
        Plan::Task(vec![
            working(),
            chunk("chunk-1 ", false, false),
            chunk("chunk-2", true, true),
            completed(),
        ])
    } else if id.starts_with("test-resubscribe-message-id") {
        Plan::Task(vec![working(), Step::Wait(delays.resubscribe), completed()])
    } else if id.starts_with("test-slow-chunks") {
        let mut steps = vec![working()];
        for number in 1..=SLOW_CHUNKS {
            steps.push(Step::Wait(SLOW_CHUNK_PAUSE));
            steps.push(Step::Artifact {
                artifact: Artifact::new("artifact-1", [Part::text(format!("chunk-{number} "))]),
                append: number > 1,
                last_chunk: number == SLOW_CHUNKS,
            });
        }
        steps.push(completed());
        Plan::Task(steps)
    } else if id.starts_with("load-chunks") {
        let chunks = (1..=LOAD_CHUNKS).map(|number| Step::Artifact {
            artifact: Artifact::new("artifact-1", [Part::text(format!("chunk-{number} "))]),
            append: number > 1,
            last_chunk: number == LOAD_CHUNKS,
        });
        let steps = std::iter::once(working())
            .chain(chunks)
            .chain([completed()]);
        Plan::Task(steps.collect())
    } else if id.starts_with("load-progress") {
        let updates = (0..PROGRESS_UPDATES).map(|index| Step::Artifact {
            artifact: Artifact::new("progress", [Part::text(progress_text(index))]),
            append: false,
            last_chunk: index + 1 == PROGRESS_UPDATES,
        });
        let steps = std::iter::once(working())
            .chain(updates)
            .chain([completed()]);
        Plan::Task(steps.collect())
    } else {
        return None;
    };
    Some(plan)
}

/// The plan for a message that continues a task waiting for input, which the message
/// `started_by` (the behaviour of the task's first message) began: a `tck-multi-turn` task asks
/// for input again until the message's text is [`MULTI_TURN_DONE`] or the message names
/// `tck-complete-task`; any other task asks again when the message names `tck-input-required`.
/// Every other message completes the task.
pub fn continue_plan(started_by: &str, message: &Message) -> Plan {
    let named = behaviour_of(message);
    let another_turn = if started_by.starts_with("tck-multi-turn") {
        let done = message.text().trim().eq_ignore_ascii_case(MULTI_TURN_DONE);
        !done && named != Some("tck-complete-task")
    } else {
        named == Some("tck-input-required")
    };
    if another_turn {
        return if started_by.starts_with("tck-multi-turn") {
            ask_for_more_turns()
        } else {
            ask_for_input()
        };
    }
    Plan::Task(vec![
        working(),
        Step::Status(
            TaskState::Completed,
            Some(format!("Thanks, that settles it: {}", message.text())),
        ),
    ])
}

/// Working, then input-required, asking for input.
fn ask_for_input() -> Plan {
    Plan::Task(vec![
        working(),
        Step::Status(
            TaskState::InputRequired,
            Some("Please provide more input".into()),
        ),
    ])
}

/// Working, then input-required, saying how the conversation ends.
fn ask_for_more_turns() -> Plan {
    Plan::Task(vec![
        working(),
        Step::Status(
            TaskState::InputRequired,
            Some(format!(
                "Please provide more input, or \"{MULTI_TURN_DONE}\" to finish"
            )),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::PartContent;

    const DELAYS: Delays = Delays {
        resubscribe: Duration::from_millis(7),
        long_running: Duration::from_millis(9),
    };

    fn plan_for(id: &str) -> Plan {
        plan(&Message::user(id, [Part::text("hi")]), DELAYS).expect("a behaviour")
    }

    fn states(plan: &Plan) -> Vec<TaskState> {
        let Plan::Task(steps) = plan else {
            return vec![];
        };
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Status(state, _) => Some(*state),
                _ => None,
            })
            .collect()
    }

    fn texts(plan: &Plan) -> Vec<String> {
        let Plan::Task(steps) = plan else {
            return vec![];
        };
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Artifact { artifact, .. } => Some(artifact.text()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_prefix_of_the_table_has_its_plan() {
        use TaskState::*;
        assert_eq!(
            plan_for("tck-message-response-1"),
            Plan::Reply("Direct message response".into())
        );
        assert_eq!(
            states(&plan_for("tck-complete-task-9")),
            [Working, Completed]
        );
        assert_eq!(
            states(&plan_for("tck-input-required")),
            [Working, InputRequired]
        );
        assert_eq!(states(&plan_for("tck-reject-task")), [Rejected]);
        assert_eq!(states(&plan_for("tck-stream-002")), [Completed]);
        for (id, text) in [
            ("tck-stream-001", "Stream hello from TCK"),
            ("tck-stream-003", "Stream task lifecycle"),
            ("tck-stream-ordering-001", "Ordered output"),
            ("tck-stream-artifact-text", "Streamed text content"),
            ("tck-artifact-text", "Generated text content"),
        ] {
            assert_eq!(texts(&plan_for(id)), [text], "{id}");
            assert_eq!(states(&plan_for(id)), [Working, Completed], "{id}");
        }
        assert_eq!(
            texts(&plan_for("tck-stream-artifact-chunked")),
            ["chunk-1 ", "chunk-2"]
        );
        let Plan::Task(steps) = plan_for("test-resubscribe-message-id-4") else {
            panic!()
        };
        assert_eq!(steps[1], Step::Wait(Duration::from_millis(7)));
        let slow = plan_for("test-slow-chunks-1");
        assert_eq!(states(&slow), [Working, Completed]);
        let chunks = texts(&slow);
        assert_eq!(chunks.len(), SLOW_CHUNKS);
        assert_eq!(
            (chunks[0].as_str(), chunks[SLOW_CHUNKS - 1].as_str()),
            ("chunk-1 ", "chunk-30 ")
        );
        let Plan::Task(steps) = slow else { panic!() };
        let appends: Vec<(bool, bool)> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Artifact {
                    append, last_chunk, ..
                } => Some((*append, *last_chunk)),
                _ => None,
            })
            .collect();
        assert_eq!(
            appends[0],
            (false, false),
            "the first chunk starts the artifact"
        );
        assert_eq!(appends[1], (true, false));
        assert_eq!(
            appends[SLOW_CHUNKS - 1],
            (true, true),
            "the last one says so"
        );
        let progress = plan_for("load-progress-3");
        assert_eq!(states(&progress), [Working, Completed]);
        let texts = texts(&progress);
        assert_eq!(texts.len(), PROGRESS_UPDATES);
        assert!(texts.iter().all(|text| text.len() == PROGRESS_TEXT_BYTES));
        assert!(texts[0].starts_with("progress 000 ") && texts[99].starts_with("progress 099 "));
    }

    #[test]
    fn the_acts_prefixes_of_the_first_text_part_count_and_the_message_id_wins() {
        use TaskState::*;
        let by_text = |text: &str| {
            plan(&Message::user("m-1", [Part::text(text)]), DELAYS).expect("a behaviour")
        };
        assert_eq!(
            states(&by_text("tck-task-failure please")),
            [Working, Failed]
        );
        assert_eq!(
            states(&by_text("tck-auth-required")),
            [Working, AuthRequired]
        );
        assert_eq!(
            states(&by_text("tck-multi-turn: step 1")),
            [Working, InputRequired]
        );
        let long_running = by_text("tck-long-running");
        assert_eq!(states(&long_running), [Working, Completed]);
        assert_eq!(texts(&long_running), [LONG_RUNNING_OUTPUT], "one artifact");
        assert_eq!(
            texts(&by_text("tck-stream-chunked")),
            ["chunk-1 ", "chunk-2"]
        );
        assert_eq!(texts(&by_text("tck-stream-basic")), ["Stream basic output"]);
        let Plan::Task(steps) = by_text("tck-cancel") else {
            panic!()
        };
        assert_eq!(steps[1], Step::UntilCanceled);
        let both = Message::user("tck-reject-task-1", [Part::text("tck-complete-task")]);
        assert_eq!(
            states(&plan(&both, DELAYS).expect("a behaviour")),
            [Rejected],
            "the messageId wins"
        );
        assert_eq!(
            behaviour_of(&Message::user("m", [Part::text("hello")])),
            None
        );
    }

    #[test]
    fn a_multi_turn_task_asks_again_until_done_and_an_input_required_task_completes_at_once() {
        use TaskState::*;
        let turn = |id: &str, text: &str| Message::user(id, [Part::text(text)]);
        let multi = "tck-multi-turn";
        for (message, expected) in [
            (turn("m-2", "here is more input"), InputRequired),
            (turn("tck-input-required-2", "more"), InputRequired),
            (turn("m-3", "not done yet"), InputRequired),
            (turn("m-4", "done"), Completed),
            (turn("m-5", "  Done\n"), Completed),
            (turn("tck-complete-task-5", "finish it"), Completed),
        ] {
            assert_eq!(
                states(&continue_plan(multi, &message)),
                [Working, expected],
                "{message:?}"
            );
        }
        let single = "tck-input-required";
        for (message, expected) in [
            (turn("m-2", "here is more input"), Completed),
            (turn("tck-input-required-2", "more"), InputRequired),
            (turn("m-4", "done"), Completed),
        ] {
            assert_eq!(
                states(&continue_plan(single, &message)),
                [Working, expected],
                "{message:?}"
            );
        }
    }

    #[test]
    fn the_file_behaviours_differ_by_the_longest_prefix() {
        let part = |id: &str| {
            let Plan::Task(steps) = plan_for(id) else {
                panic!()
            };
            let Step::Artifact { artifact, .. } = &steps[1] else {
                panic!()
            };
            artifact.parts[0].clone()
        };
        let url = part("tck-artifact-file-url");
        assert_eq!(
            url.content,
            Some(PartContent::Url("https://example.com/output.txt".into()))
        );
        assert_eq!(url.filename.as_deref(), Some("output.txt"));
        let file = part("tck-artifact-file");
        assert_eq!(file.content, Some(PartContent::Raw(FILE_CONTENT.to_vec())));
        assert_eq!(file.media_type.as_deref(), Some("text/plain"));
        let data = part("tck-artifact-data");
        assert_eq!(
            data.content,
            Some(PartContent::Data(
                serde_json::json!({"key": "value", "count": 42})
            ))
        );
    }
}
