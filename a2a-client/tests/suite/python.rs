//! The Python SDK servers the interop tests drive: finding an interpreter that has the SDK, and
//! running a server script on loopback until the test ends (killed by its pid on drop).
//!
//! Without an interpreter a test prints one line and passes, except under `CI=true`, where it fails.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Python named by `env_var`, else the workspace's `venv`, if it can import `modules`.
pub fn find(env_var: &str, venv: &str, modules: &str, test: &str) -> Option<PathBuf> {
    let imports = |python: &Path| {
        Command::new(python)
            .args(["-c", &format!("import {modules}")])
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if let Some(python) = std::env::var_os(env_var).filter(|p| !p.is_empty()) {
        let python = PathBuf::from(python);
        assert!(
            imports(&python),
            "{env_var}={} cannot import {modules}",
            python.display()
        );
        return Some(python);
    }
    let candidate = workspace_root().join(venv).join("bin/python");
    if candidate.exists() && imports(&candidate) {
        return Some(candidate);
    }
    let why = format!(
        "{env_var} is not set and {} cannot import {modules}",
        candidate.display()
    );
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: {why} (CI=true)"
    );
    eprintln!("skipping {test}: {why}");
    None
}

/// A server script running on loopback.
pub struct PyServer {
    child: Child,
    /// The JSON line the script printed once it accepted connections.
    pub ready: Value,
}

impl PyServer {
    /// Starts `tests/interop/<script>` and waits (at most a minute) for its ready line.
    pub fn start(python: &Path, script: &str, args: &[&str]) -> PyServer {
        let mut child = Command::new(python)
            .arg(workspace_root().join("tests/interop").join(script))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {script}: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let mut server = PyServer {
            child,
            ready: Value::Null,
        };
        let line = receiver
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{script} did not get ready within a minute"));
        server.ready = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("{script}'s ready line {line:?}: {e}"));
        server
    }

    /// Kills the server now (by its pid), as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn url(&self) -> String {
        self.ready["url"].as_str().expect("url").to_owned()
    }
}

impl Drop for PyServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The rest of a push-config round trip after `id` was created on `task_id` with the token `tok`,
/// the same for every SDK server: it reads back with its token, lists as one, deletes, lists as none.
pub async fn push_config_get_list_delete(client: &a2a_client::A2aClient, task_id: &str, id: &str) {
    use a2a_types::v1::{
        DeleteTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigRequest,
        ListTaskPushNotificationConfigsRequest,
    };
    let fetched = client
        .get_task_push_notification_config(GetTaskPushNotificationConfigRequest {
            task_id: task_id.into(),
            id: id.into(),
            ..Default::default()
        })
        .await
        .expect("fetched");
    assert_eq!(fetched.token.as_deref(), Some("tok"));
    let count = || async {
        client
            .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest {
                task_id: task_id.into(),
                ..Default::default()
            })
            .await
            .expect("listed")
            .configs
            .len()
    };
    assert_eq!(count().await, 1);
    client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest {
            task_id: task_id.into(),
            id: id.into(),
            ..Default::default()
        })
        .await
        .expect("deleted");
    assert_eq!(count().await, 0);
}
