//! Slots for what a caller holds open ([`OwnerSlots`]): streams
//! ([`ServerConfig::max_streams`](crate::ServerConfig) and `max_streams_per_owner`) and running
//! executions (`max_executions` and `max_executions_per_owner`), each capped in all and per owner,
//! so one caller holding many open refuses only that caller: every other owner keeps room.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use std::time::Duration;

use a2a_protocol::errors::Error;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::auth::Owner;

/// When a refused caller is told to try again: streams and executions usually end within seconds.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// Slots taken, in all and per owner; a refusal is a temporary one ([`Error::unavailable`]: HTTP
/// 503 with `Retry-After`, gRPC `UNAVAILABLE`, JSON-RPC `-32603` with a `RetryInfo`).
#[derive(Debug)]
pub(crate) struct OwnerSlots {
    /// What a slot holds, plural (`streams`), for the refusals.
    what: &'static str,
    all: Arc<Semaphore>,
    max: usize,
    per_owner: usize,
    open: Mutex<HashMap<Owner, usize>>,
}

/// One slot, given back when dropped.
#[derive(Debug)]
pub(crate) struct OwnerSlot {
    /// `None` for a slot taken over the cap ([`OwnerSlots::take_anyway`]).
    _all: Option<OwnedSemaphorePermit>,
    slots: Arc<OwnerSlots>,
    owner: Owner,
}

impl OwnerSlots {
    /// Room for `max` of `what`, at most `per_owner` of them an owner's (both at least 1).
    pub(crate) fn new(what: &'static str, max: usize, per_owner: usize) -> Arc<Self> {
        let max = max.max(1);
        Arc::new(OwnerSlots {
            what,
            all: Arc::new(Semaphore::new(max)),
            max,
            per_owner: per_owner.clamp(1, max),
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for one more of `owner`'s, or the error naming the cap reached.
    pub(crate) fn take(self: &Arc<Self>, owner: &Owner) -> Result<OwnerSlot, Error> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.get(owner).copied().unwrap_or(0);
        if count >= self.per_owner {
            return Err(Error::unavailable(
                format!(
                    "this caller has its {} {} open; try again once one ends",
                    self.per_owner, self.what
                ),
                RETRY_AFTER,
            ));
        }
        let all = self.all.clone().try_acquire_owned().map_err(|_| {
            Error::unavailable(
                format!(
                    "this server has its {} {} open; try again later",
                    self.max, self.what
                ),
                RETRY_AFTER,
            )
        })?;
        open.insert(owner.clone(), count + 1);
        Ok(OwnerSlot {
            _all: Some(all),
            slots: self.clone(),
            owner: owner.clone(),
        })
    }

    /// A slot for `owner` whatever the caps (for what was accepted before, such as an execution
    /// resumed after a restart), counted against them so new ones wait for it.
    pub(crate) fn take_anyway(self: &Arc<Self>, owner: &Owner) -> OwnerSlot {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        *open.entry(owner.clone()).or_insert(0) += 1;
        OwnerSlot {
            _all: self.all.clone().try_acquire_owned().ok(),
            slots: self.clone(),
            owner: owner.clone(),
        }
    }

    /// Slots taken now (those taken over the cap in all not counted).
    pub(crate) fn open(&self) -> usize {
        self.max - self.all.available_permits()
    }
}

impl Drop for OwnerSlot {
    fn drop(&mut self) {
        let mut open = self
            .slots
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.owner) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.owner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(principal: &str) -> Owner {
        Owner {
            principal: principal.into(),
            tenant: String::new(),
        }
    }

    #[test]
    fn an_owner_at_its_cap_is_refused_and_others_are_not() {
        let slots = OwnerSlots::new("streams", 10, 2);
        let (anonymous, member) = (owner(""), owner("member"));
        let first = slots.take(&anonymous).expect("first");
        let _second = slots.take(&anonymous).expect("second");
        let refused = slots.take(&anonymous).expect_err("over the owner's cap");
        assert!(
            refused
                .message
                .contains("this caller has its 2 streams open")
        );
        let _members = slots.take(&member).expect("another owner has room");
        assert_eq!(slots.open(), 3);
        drop(first);
        slots.take(&anonymous).expect("a slot came back");
    }

    #[test]
    fn the_cap_in_all_still_holds() {
        let slots = OwnerSlots::new("streams", 2, 2);
        let _a = slots.take(&owner("a")).expect("a");
        let _b = slots.take(&owner("b")).expect("b");
        let refused = slots.take(&owner("c")).expect_err("the server is full");
        assert!(
            refused
                .message
                .contains("this server has its 2 streams open")
        );
        // A refusal by the cap in all leaves nothing counted for its owner.
        assert!(!slots.open.lock().unwrap().contains_key(&owner("c")));
    }

    #[test]
    fn a_slot_taken_anyway_counts_against_the_caps() {
        let slots = OwnerSlots::new("executions", 2, 1);
        let resumed = slots.take_anyway(&owner("a"));
        assert!(slots.take(&owner("a")).is_err(), "a's one slot is taken");
        let _b = slots.take(&owner("b")).expect("b");
        let _over = slots.take_anyway(&owner("c"));
        assert!(slots.take(&owner("d")).is_err(), "all taken");
        drop(resumed);
        slots.take(&owner("a")).expect("given back");
    }
}
