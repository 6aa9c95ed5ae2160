//! The verbs on tasks already made: `a2a get` (GetTask), `a2a list` (ListTasks, one page),
//! `a2a cancel` (CancelTask) and `a2a subscribe` (SubscribeToTask, each event as it arrives), and
//! the printing of a stream both `subscribe` and `stream` share.

use a2a_client::EventStream;
use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, ListTasksRequest, StreamResponse, SubscribeToTaskRequest,
    TaskState,
};

use super::args::{GetArgs, ListArgs, StateChoice, TaskArgs};
use super::connect::{block_on, connect, failure};
use super::outcome;
use super::output::{Printer, state_name};
use crate::failure::Failure;

/// `a2a get`: prints the task; the exit status follows its state.
pub fn get(args: &GetArgs) -> Result<Vec<u8>, Failure> {
    let history_length = args
        .history_length
        .map(|n| {
            i32::try_from(n).map_err(|_| Failure::usage(format!("--history: {n} is too large")))
        })
        .transpose()?;
    block_on(async {
        let client = connect(&args.agent).await?;
        let request = GetTaskRequest {
            id: args.task_id.clone(),
            history_length,
            ..Default::default()
        };
        let task = client.get_task(request).await.map_err(failure)?;
        Printer::new(args.agent.json).task(&task, true)?;
        outcome(&task.id, task.status.state)
    })
}

/// `a2a list`: prints one page of tasks, one line each, and the token of the next page.
pub fn list(args: &ListArgs) -> Result<Vec<u8>, Failure> {
    let page_size = args
        .page_size
        .map(|n| match i32::try_from(n) {
            Ok(size) if size > 0 => Ok(size),
            _ => Err(Failure::usage(format!(
                "--page-size: {n} is not between 1 and {}",
                i32::MAX
            ))),
        })
        .transpose()?;
    let request = ListTasksRequest {
        context_id: args.context_id.clone(),
        status: args.state.map(task_state),
        page_size,
        page_token: args.page_token.clone(),
        ..Default::default()
    };
    block_on(async {
        let client = connect(&args.agent).await?;
        let page = client.list_tasks(request).await.map_err(failure)?;
        let mut printer = Printer::new(args.agent.json);
        if printer.json() {
            printer.json_line(&page)?;
            return Ok(Vec::new());
        }
        for task in &page.tasks {
            printer.line(&format!(
                "{}  {}  context {}",
                task.id,
                state_name(task.status.state),
                task.context_id.as_deref().unwrap_or("none")
            ))?;
        }
        printer.line(&format!(
            "{} of {} tasks",
            page.tasks.len(),
            page.total_size
        ))?;
        if !page.next_page_token.is_empty() {
            printer.line(&format!("next page: --page-token {}", page.next_page_token))?;
        }
        Ok(Vec::new())
    })
}

/// `a2a cancel`: prints the task as the agent answers it; success when the agent took the cancel.
pub fn cancel(args: &TaskArgs) -> Result<Vec<u8>, Failure> {
    block_on(async {
        let client = connect(&args.agent).await?;
        let request = CancelTaskRequest {
            id: args.task_id.clone(),
            ..Default::default()
        };
        let task = client.cancel_task(request).await.map_err(failure)?;
        Printer::new(args.agent.json).task(&task, false)?;
        Ok(Vec::new())
    })
}

/// `a2a subscribe`: prints each event of the task as it arrives, until the stream ends.
pub fn subscribe(args: &TaskArgs) -> Result<Vec<u8>, Failure> {
    block_on(async {
        let client = connect(&args.agent).await?;
        let request = SubscribeToTaskRequest {
            id: args.task_id.clone(),
            ..Default::default()
        };
        let events = client.subscribe_to_task(request).await.map_err(failure)?;
        print_stream(events, &mut Printer::new(args.agent.json)).await
    })
}

/// Prints each event as it arrives; the exit status follows the last task state seen.
pub async fn print_stream(
    mut events: EventStream,
    printer: &mut Printer,
) -> Result<Vec<u8>, Failure> {
    let mut last: Option<(String, TaskState)> = None;
    while let Some(event) = events.next().await {
        let event = event.map_err(failure)?;
        printer.event(&event)?;
        match &event {
            StreamResponse::Task(task) => last = Some((task.id.clone(), task.status.state)),
            StreamResponse::StatusUpdate(update) => {
                last = Some((update.task_id.clone(), update.status.state));
            }
            _ => {}
        }
    }
    match last {
        Some((task_id, state)) => outcome(&task_id, state),
        None => Ok(Vec::new()),
    }
}

/// The task state `--state` names.
fn task_state(choice: StateChoice) -> TaskState {
    match choice {
        StateChoice::Submitted => TaskState::Submitted,
        StateChoice::Working => TaskState::Working,
        StateChoice::Completed => TaskState::Completed,
        StateChoice::Failed => TaskState::Failed,
        StateChoice::Canceled => TaskState::Canceled,
        StateChoice::InputRequired => TaskState::InputRequired,
        StateChoice::Rejected => TaskState::Rejected,
        StateChoice::AuthRequired => TaskState::AuthRequired,
    }
}
