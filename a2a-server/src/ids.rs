//! Ids the server makes (tasks, contexts, messages, push configs): 128 random bits as hex, so ids
//! made by several replicas sharing one store never collide and never reveal how many came before.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// 64 random bits: std's `RandomState` is seeded from the operating system's randomness per
/// instance; the counter makes two draws in one instant differ.
fn random_u64() -> u64 {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

/// A new id such as `task-3f2a…` (the kind, then 32 hex digits).
pub fn new_id(kind: &str) -> String {
    format!("{kind}-{:016x}{:016x}", random_u64(), random_u64())
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_differ_and_name_their_kind() {
        let a = super::new_id("task");
        let b = super::new_id("task");
        assert_ne!(a, b);
        assert!(a.starts_with("task-") && a.len() == 5 + 32, "{a}");
    }
}
