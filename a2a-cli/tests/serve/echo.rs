//! `a2a serve --echo` on a SQLite store (`--store sqlite:PATH`): on every binding and both protocol
//! versions the message's parts come back as the task's artifact, and the task is in the file the
//! option named (read back by a second server on the same file).

use a2a_client::{A2aClient, ClientConfig};
use a2a_protocol::service::ProtocolVersion;
use a2a_types::v1::{
    GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse, TaskState,
};

use crate::serving::{BINDINGS, runtime, serve};

#[test]
fn the_parts_come_back_on_every_binding_and_version_and_the_store_keeps_them() {
    let path = std::env::temp_dir().join(format!("a2a-serve-echo-{}.sqlite3", std::process::id()));
    a2a_testkit::stores::remove_sqlite(&path);
    let store = format!("sqlite:{}", path.display());
    let mut made = Vec::new();
    {
        let server = serve(&["--echo", "--store", &store]);
        runtime().block_on(async {
            for version in [ProtocolVersion::V1_0, ProtocolVersion::V0_3] {
                for binding in BINDINGS {
                    let config = ClientConfig::default().only(binding).only_version(version);
                    let client = A2aClient::connect(&server.url, config)
                        .await
                        .expect("connects");
                    let text = format!("hello over {binding} {version}");
                    let request = SendMessageRequest {
                        message: Message::user(
                            format!("echo-{}-{binding}-{version}", std::process::id()),
                            [Part::text(&text), Part::data(serde_json::json!({"n": 1}))],
                        ),
                        ..Default::default()
                    };
                    let Ok(SendMessageResponse::Task(task)) = client.send_message(request).await
                    else {
                        panic!("{binding} {version}: expected a task");
                    };
                    assert_eq!(task.status.state, TaskState::Completed);
                    let parts = &task.artifacts[0].parts;
                    assert_eq!(parts[0], Part::text(&text), "{binding} {version}");
                    assert_eq!(parts[1], Part::data(serde_json::json!({"n": 1})));
                    made.push(task.id);
                }
            }
        });
    }
    // The same file under a new server: every task is still there.
    let server = serve(&["--echo", "--store", &store]);
    runtime().block_on(async {
        let client = A2aClient::connect(&server.url, ClientConfig::default())
            .await
            .expect("connects");
        for id in &made {
            let request = GetTaskRequest {
                id: id.clone(),
                ..Default::default()
            };
            let task = client.get_task(request).await.expect("kept in the file");
            assert_eq!(task.status.state, TaskState::Completed);
        }
    });
    drop(server);
    a2a_testkit::stores::remove_sqlite(&path);
}
