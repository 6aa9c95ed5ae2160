//! The tasks this process wrote last, with their versions: what an update of a running task
//! starts from instead of reading the task back first ([`SqlStore::modify`](crate::SqlStore)).
//! Only a hint: the update still names the version it expects, so a task another replica (or
//! another path) changed meanwhile fails the update with a conflict, and the change is made again
//! on the task read from the database. Never read to answer a client.
//!
//! Bounded: at most [`CAPACITY`] tasks, the oldest forgotten first; a task that reaches a terminal
//! state is forgotten at once (nothing updates it again). Every operation is O(1) amortized under
//! a short lock: no scan.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use a2a_server::auth::Owner;
use a2a_server::store::StoredTask;

/// Tasks remembered at most.
pub(crate) const CAPACITY: usize = 1024;

/// A task's key: its owner and id.
type Key = (String, String, String);

fn key(owner: &Owner, task_id: &str) -> Key {
    (
        owner.principal.clone(),
        owner.tenant.clone(),
        task_id.to_owned(),
    )
}

#[derive(Debug, Default)]
struct Entries {
    /// The task, its version, and the stamp of its place in `order`.
    tasks: HashMap<Key, (StoredTask, u64)>,
    /// Keys in the order they were remembered, with their stamp; a key whose stamp no longer
    /// matches was taken or remembered again since, and is skipped.
    order: VecDeque<(Key, u64)>,
    next_stamp: u64,
}

/// The tasks this process wrote last (see the [module docs](self)).
#[derive(Debug, Default)]
pub(crate) struct Written {
    entries: Mutex<Entries>,
}

impl Written {
    /// Takes the owner's task out, if remembered.
    pub(crate) fn take(&self, owner: &Owner, task_id: &str) -> Option<StoredTask> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .tasks
            .remove(&key(owner, task_id))
            .map(|(task, _)| task)
    }

    /// Forgets the owner's task.
    pub(crate) fn forget(&self, owner: &Owner, task_id: &str) {
        self.take(owner, task_id);
    }

    /// Remembers `stored` as the owner's task, as written; a terminal task is forgotten instead.
    pub(crate) fn remember(&self, owner: &Owner, stored: StoredTask) {
        let key = key(owner, &stored.task.id);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if stored.task.status.state.is_terminal() {
            entries.tasks.remove(&key);
            return;
        }
        let stamp = entries.next_stamp;
        entries.next_stamp += 1;
        entries.order.push_back((key.clone(), stamp));
        entries.tasks.insert(key, (stored, stamp));
        // Drop what is stale at the front, and the oldest while over capacity; the order never
        // holds more than a few times the capacity.
        while let Some((front, front_stamp)) = entries.order.front() {
            let live = entries
                .tasks
                .get(front)
                .is_some_and(|(_, stamp)| stamp == front_stamp);
            let over = entries.tasks.len() > CAPACITY || entries.order.len() > 4 * CAPACITY;
            if live && !over {
                break;
            }
            let (front, front_stamp) = entries.order.pop_front().expect("a front entry");
            if live
                || entries
                    .tasks
                    .get(&front)
                    .is_some_and(|(_, stamp)| *stamp == front_stamp)
            {
                entries.tasks.remove(&front);
            }
        }
    }

    /// How many tasks are remembered (for tests).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.lock().unwrap().tasks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_server::auth::Caller;
    use a2a_types::v1::{Task, TaskState, TaskStatus};

    fn stored(id: &str, state: TaskState, version: u64) -> StoredTask {
        StoredTask::new(Task::new(id, "ctx", TaskStatus::now(state)), version)
    }

    #[test]
    fn remembers_the_last_written_tasks_within_its_capacity() {
        let written = Written::default();
        let alice = Owner::of(&Caller::authenticated("alice"), None);
        let bob = Owner::of(&Caller::authenticated("bob"), None);
        written.remember(&alice, stored("t", TaskState::Working, 2));
        assert!(
            written.take(&bob, "t").is_none(),
            "another owner's task is not theirs"
        );
        assert_eq!(written.take(&alice, "t").map(|s| s.version), Some(2));
        assert!(written.take(&alice, "t").is_none(), "taken once");

        written.remember(&alice, stored("done", TaskState::Working, 2));
        written.remember(&alice, stored("done", TaskState::Completed, 3));
        assert!(
            written.take(&alice, "done").is_none(),
            "a task that is over is forgotten"
        );

        for round in 0..3 {
            for i in 0..CAPACITY + 10 {
                written.remember(&alice, stored(&format!("t{i}"), TaskState::Working, round));
            }
        }
        assert_eq!(written.len(), CAPACITY);
        assert!(
            written.take(&alice, "t0").is_none(),
            "the oldest went first"
        );
        assert!(
            written
                .take(&alice, &format!("t{}", CAPACITY + 9))
                .is_some()
        );
        // Taken and remembered again many times: the order stays bounded.
        for version in 0..(10 * CAPACITY as u64) {
            let again = written
                .take(&alice, "t20")
                .unwrap_or_else(|| stored("t20", TaskState::Working, 0));
            written.remember(&alice, StoredTask::new(again.task, version));
        }
        assert!(written.entries.lock().unwrap().order.len() <= 4 * CAPACITY + 1);
    }
}
