//! Row 7 of issue 29, on every binding and on the memory and SQLite stores: a task of twenty
//! 1 MiB turns is answered within the 16 MiB answer budget, oldest history first out, the newest
//! turn kept (GetTask answered 84 MB before).

use a2a_protocol::operations::{MethodResult, Operation};
use a2a_types::v1::{Role, SendMessageResponse};
use serde_json::json;

use crate::common;
use crate::probe::MIB;
use crate::wire::{BINDINGS, call, client, message};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_of_many_big_turns_is_answered_within_the_budget_on_every_binding_and_store() {
    let (path, _file) = common::sqlite_file("hostile_turns");
    for store in ["memory".to_owned(), format!("sqlite:{path}")] {
        let (_server, url) = common::start(&store);
        let writer = client(&url, a2a_client::Binding::JsonRpc, None).await;
        let Ok(MethodResult::SendMessage(SendMessageResponse::Task(task))) = call(
            &writer,
            Operation::SendMessage,
            json!({"message": message("tck-multi-turn-1", "tck-multi-turn")}),
        )
        .await
        else {
            panic!("a task waiting for input")
        };
        let turn_text = "x".repeat(MIB);
        for turn in 0..20 {
            let mut next = message(&format!("turn-{turn}"), &turn_text);
            next["taskId"] = json!(task.id);
            call(&writer, Operation::SendMessage, json!({"message": next}))
                .await
                .unwrap_or_else(|e| panic!("turn {turn}: {e}"));
        }
        for binding in BINDINGS {
            let reader = client(&url, binding, None).await;
            let Ok(MethodResult::GetTask(answer)) =
                call(&reader, Operation::GetTask, json!({"id": task.id})).await
            else {
                panic!("GetTask on {binding:?}")
            };
            let size = serde_json::to_vec(&answer).expect("JSON").len();
            eprintln!(
                "20 turns of 1 MiB, {}: GetTask on {binding:?} answered {} MB ({} messages)",
                store.split(':').next().unwrap_or_default(),
                size / 1_000_000,
                answer.history.len()
            );
            assert!(size <= 16 * MIB, "{binding:?}: {size} bytes");
            assert!(answer.history.len() < 41, "{binding:?}: trimmed");
            let newest_user = answer
                .history
                .iter()
                .rev()
                .find(|m| m.role == Role::User)
                .expect("a user message");
            assert_eq!(
                newest_user.message_id, "turn-19",
                "{binding:?}: the newest turn stays"
            );
        }
    }
}
