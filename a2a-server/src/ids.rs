//! Ids the server makes (tasks, contexts, messages, push configs): UUIDs of version 7 as hex, so
//! ids made by several replicas sharing one store never collide and never reveal how many came
//! before, and a store's index on them grows at its end.
//!
//! Why time-ordered: a store keeps its tasks in an index by id, and a random id lands anywhere in
//! it. Once that index outgrows the database's cache, each new task reads and dirties a page of
//! it that nothing else touched lately (and, after each checkpoint, writes that whole page to the
//! write-ahead log). An id that starts with its creation time lands on the index's last pages,
//! which stay in the cache however many tasks the store holds.

use uuid::{NoContext, Timestamp, Uuid};

/// A new id such as `task-019acb…` (the kind, then 32 hex digits: the millisecond it was made,
/// then 74 random bits). Ids made in one millisecond are in no particular order: no counter is
/// kept, so an id says nothing of the ids made before it.
pub fn new_id(kind: &str) -> String {
    let id = Uuid::new_v7(Timestamp::now(NoContext));
    format!("{kind}-{}", id.simple())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn ids_differ_and_name_their_kind() {
        let a = super::new_id("task");
        let b = super::new_id("task");
        assert_ne!(a, b);
        assert!(a.starts_with("task-") && a.len() == 5 + 32, "{a}");
        assert!(a[5..].bytes().all(|b| b.is_ascii_hexdigit()), "{a}");
    }

    #[test]
    fn an_id_made_later_sorts_after_the_earlier_ones() {
        let mut earlier = super::new_id("task");
        for _ in 0..3 {
            std::thread::sleep(Duration::from_millis(2));
            let later = super::new_id("task");
            assert!(later > earlier, "{later} made after {earlier}");
            earlier = later;
        }
    }

    #[test]
    fn ids_made_together_are_all_different() {
        let ids: std::collections::HashSet<String> =
            (0..10_000).map(|_| super::new_id("ctx")).collect();
        assert_eq!(ids.len(), 10_000);
    }
}
