//! [`TaskPages`]: `ListTasks` page after page, following `nextPageToken` until the last page.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use a2a_types::v1::{ListTasksRequest, ListTasksResponse, Task};

use crate::binding::Binding;
use crate::error::ClientError;

/// What the pages ask of the client that lists them: one page, and the binding errors name.
pub(crate) trait ListTasks: fmt::Debug + Send + Sync {
    /// The binding the client calls over now.
    fn binding(&self) -> Binding;
    /// One `ListTasks` call.
    fn list_tasks(
        &self,
        request: ListTasksRequest,
    ) -> Pin<Box<dyn Future<Output = Result<ListTasksResponse, ClientError>> + Send + '_>>;
}

/// The pages of one `ListTasks` query ([`A2aClient::list_task_pages`](crate::A2aClient::list_task_pages)).
///
/// ```no_run
/// # async fn run(client: a2a_client::A2aClient) -> Result<(), a2a_client::ClientError> {
/// use a2a_types::v1::{ListTasksRequest, TaskState};
///
/// let request = ListTasksRequest { status: Some(TaskState::Working), ..Default::default() };
/// let working = client.list_task_pages(request).all_tasks(1_000).await?;
/// println!("{} tasks still working", working.len());
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct TaskPages {
    client: Box<dyn ListTasks>,
    request: ListTasksRequest,
    done: bool,
    seen_tokens: Vec<String>,
}

impl TaskPages {
    pub(crate) fn new(client: impl ListTasks + 'static, request: ListTasksRequest) -> Self {
        TaskPages {
            client: Box::new(client),
            request,
            done: false,
            seen_tokens: Vec::new(),
        }
    }

    /// The next page, `None` after the last one. An agent that hands back a page token it already
    /// gave would make this loop forever; that is an error instead.
    pub async fn next_page(&mut self) -> Option<Result<ListTasksResponse, ClientError>> {
        if self.done {
            return None;
        }
        let page = match self.client.list_tasks(self.request.clone()).await {
            Ok(page) => page,
            Err(error) => {
                self.done = true;
                return Some(Err(error));
            }
        };
        let token = page.next_page_token.clone();
        if token.is_empty() {
            self.done = true;
        } else if self.seen_tokens.contains(&token) {
            self.done = true;
            return Some(Err(ClientError::invalid(
                Some(self.client.binding()),
                format!("ListTasks handed back the page token {token:?} twice"),
            )));
        } else {
            self.seen_tokens.push(token.clone());
            self.request.page_token = Some(token);
        }
        Some(Ok(page))
    }

    /// Every task of every page, stopping with an error past `max_tasks` (a bound on memory).
    pub async fn all_tasks(mut self, max_tasks: usize) -> Result<Vec<Task>, ClientError> {
        let mut tasks = Vec::new();
        while let Some(page) = self.next_page().await {
            tasks.extend(page?.tasks);
            if tasks.len() > max_tasks {
                return Err(ClientError::invalid(
                    Some(self.client.binding()),
                    format!("ListTasks returned more than the {max_tasks} tasks asked for at most"),
                ));
            }
        }
        Ok(tasks)
    }
}
