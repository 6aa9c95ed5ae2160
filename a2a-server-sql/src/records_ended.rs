//! The tasks whose execution record a terminal write of this process removed with the task (on
//! PostgreSQL, the `ended` step of `Dialect::UPDATE_TASK_AT_ONCE`): the executor's end of that
//! record would delete nothing, so [`SqlStore::finish_execution`](crate::SqlStore) does not send
//! it.
//!
//! Why nothing can be left to delete: the server starts no execution of a task that is over,
//! and every insert of a record selects from the insert or the update of its task, so a task's
//! record never comes back once a terminal write removed it.
//!
//! Only a hint, bounded: at most [`CAPACITY`] tasks, the oldest forgotten first (their end is then
//! sent, and finds nothing, as before). O(1) under a short lock.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

/// Tasks remembered at most.
pub(crate) const CAPACITY: usize = 1024;

#[derive(Debug, Default)]
struct Ids {
    ids: HashSet<String>,
    /// The ids in the order they were noted, for forgetting the oldest; an id taken since may
    /// still be here, and is skipped.
    order: VecDeque<String>,
}

/// The tasks whose record a terminal write removed (see the [module docs](self)).
#[derive(Debug, Default)]
pub(crate) struct RecordsEnded {
    ids: Mutex<Ids>,
}

impl RecordsEnded {
    /// Notes that a terminal write of `task_id` removed its execution record.
    pub(crate) fn note(&self, task_id: &str) {
        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        if ids.ids.insert(task_id.to_owned()) {
            ids.order.push_back(task_id.to_owned());
        }
        while ids.order.len() > CAPACITY {
            if let Some(oldest) = ids.order.pop_front() {
                ids.ids.remove(&oldest);
            }
        }
    }

    /// Whether a terminal write removed `task_id`'s record, forgetting it.
    pub(crate) fn take(&self, task_id: &str) -> bool {
        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        ids.ids.remove(task_id)
    }

    /// How many tasks are remembered (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.ids.lock().unwrap().ids.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_noted_task_is_taken_once_and_the_oldest_go_past_the_capacity() {
        let ended = RecordsEnded::default();
        assert!(!ended.take("t"), "never noted");
        ended.note("t");
        ended.note("t");
        assert!(ended.take("t"));
        assert!(!ended.take("t"), "taken once");
        for i in 0..CAPACITY + 10 {
            ended.note(&format!("t{i}"));
        }
        assert_eq!(ended.len(), CAPACITY);
        assert!(!ended.take("t0"), "the oldest was forgotten");
        assert!(ended.take(&format!("t{}", CAPACITY + 9)));
        // Noted again after being taken: still bounded.
        for _ in 0..3 {
            for i in 0..CAPACITY {
                ended.note(&format!("u{i}"));
                ended.take(&format!("u{i}"));
                ended.note(&format!("u{i}"));
            }
        }
        assert!(ended.len() <= CAPACITY);
        assert!(ended.ids.lock().unwrap().order.len() <= CAPACITY);
    }
}
