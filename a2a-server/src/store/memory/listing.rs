//! The in-memory store's ListTasks order, kept as tasks are written: each owner's tasks by status
//! time, newest first, the later-created first among equal times ([`PageKey`]). A page is a walk
//! from its token's place in the owner's own tasks, O(log n) to find plus the page, and an
//! unfiltered listing's total is the owner's count: neither scans the store, which would hold its
//! lock (and every other caller's writes) for a time growing with everyone's tasks.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};
use std::mem::size_of;
use std::ops::Bound;

use crate::auth::Owner;

/// Where a task sorts in ListTasks: its status time (microseconds since the epoch, 0 without
/// one), then its creation order; unique per task, as creation orders are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct PageKey {
    pub(super) micros: i64,
    pub(super) created: u64,
}

impl PageKey {
    /// The token continuing after this key: opaque to clients.
    pub(super) fn token(&self) -> String {
        format!("{}.{}", self.micros, self.created)
    }

    pub(super) fn parse(token: &str) -> Option<PageKey> {
        let (micros, created) = token.split_once('.')?;
        Some(PageKey {
            micros: micros.parse().ok()?,
            created: created.parse().ok()?,
        })
    }
}

/// Each owner's task ids in ListTasks order.
#[derive(Debug, Default)]
pub(super) struct Listing {
    by_owner: HashMap<Owner, BTreeMap<Reverse<PageKey>, String>>,
}

impl Listing {
    /// What one listed task costs beyond its id's characters (counted by the caller), as an
    /// upper bound: its place in a B-tree (nodes at least half full).
    pub(super) const fn entry_overhead() -> usize {
        2 * size_of::<(Reverse<PageKey>, String)>()
    }

    pub(super) fn add(&mut self, owner: &Owner, key: PageKey, id: &str) {
        self.by_owner
            .entry(owner.clone())
            .or_default()
            .insert(Reverse(key), id.to_owned());
    }

    pub(super) fn remove(&mut self, owner: &Owner, key: PageKey) {
        if let Some(tasks) = self.by_owner.get_mut(owner) {
            tasks.remove(&Reverse(key));
            if tasks.is_empty() {
                self.by_owner.remove(owner);
            }
        }
    }

    /// Moves a task of `owner` listed under `from` to `to` (nothing when they are equal).
    pub(super) fn moved(&mut self, owner: &Owner, from: PageKey, to: PageKey) {
        if from == to {
            return;
        }
        if let Some(tasks) = self.by_owner.get_mut(owner)
            && let Some(id) = tasks.remove(&Reverse(from))
        {
            tasks.insert(Reverse(to), id);
        }
    }

    /// How many tasks `owner` has.
    pub(super) fn count(&self, owner: &Owner) -> usize {
        self.by_owner.get(owner).map_or(0, BTreeMap::len)
    }

    /// `owner`'s tasks in ListTasks order, from the first after `after` (from the newest without
    /// it).
    pub(super) fn after(
        &self,
        owner: &Owner,
        after: Option<PageKey>,
    ) -> impl Iterator<Item = (PageKey, &str)> {
        let start = match after {
            Some(key) => Bound::Excluded(Reverse(key)),
            None => Bound::Unbounded,
        };
        self.by_owner
            .get(owner)
            .into_iter()
            .flat_map(move |tasks| tasks.range((start, Bound::Unbounded)))
            .map(|(Reverse(key), id)| (*key, id.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(micros: i64, created: u64) -> PageKey {
        PageKey { micros, created }
    }

    fn owner(principal: &str) -> Owner {
        Owner {
            principal: principal.to_owned(),
            tenant: String::new(),
        }
    }

    #[test]
    fn lists_newest_first_per_owner_and_continues_after_a_key() {
        let mut listing = Listing::default();
        listing.add(&owner("alice"), key(10, 1), "a1");
        listing.add(&owner("alice"), key(30, 2), "a2");
        listing.add(&owner("bob"), key(20, 3), "b1");
        listing.add(&owner("alice"), key(30, 4), "a3");
        let ids = |after| -> Vec<String> {
            listing
                .after(&owner("alice"), after)
                .map(|(_, id)| id.to_owned())
                .collect()
        };
        assert_eq!(ids(None), ["a3", "a2", "a1"]);
        assert_eq!(ids(Some(key(30, 4))), ["a2", "a1"]);
        assert_eq!(ids(Some(key(10, 1))), Vec::<String>::new());
        assert_eq!(listing.count(&owner("alice")), 3);
        assert_eq!(listing.count(&owner("carol")), 0);
    }

    #[test]
    fn a_moved_task_lists_at_its_new_place_and_a_removed_owner_leaves_nothing() {
        let mut listing = Listing::default();
        listing.add(&owner("alice"), key(10, 1), "a1");
        listing.add(&owner("alice"), key(20, 2), "a2");
        listing.moved(&owner("alice"), key(10, 1), key(40, 1));
        let first: Vec<&str> = listing
            .after(&owner("alice"), None)
            .map(|(_, id)| id)
            .collect();
        assert_eq!(first, ["a1", "a2"]);
        listing.remove(&owner("alice"), key(40, 1));
        listing.remove(&owner("alice"), key(20, 2));
        assert_eq!(listing.count(&owner("alice")), 0);
        assert!(listing.by_owner.is_empty());
    }

    #[test]
    fn tokens_round_trip_and_junk_is_refused() {
        let k = key(-5, 7);
        assert_eq!(PageKey::parse(&k.token()), Some(k));
        assert_eq!(PageKey::parse("12"), None);
        assert_eq!(PageKey::parse("a.b"), None);
    }
}
