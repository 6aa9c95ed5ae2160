//! The slots streams are open in ([`StreamSlots`]): a cap on streams in all
//! ([`ServerConfig::max_streams`](crate::ServerConfig)) and one per owner
//! ([`ServerConfig::max_streams_per_owner`](crate::ServerConfig)), so one caller holding its streams
//! open, unread, refuses only that caller: every other owner keeps room to subscribe.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use a2a_protocol::errors::{Error, ErrorKind};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::auth::Owner;

/// Streams open, in all and per owner.
#[derive(Debug)]
pub(crate) struct StreamSlots {
    all: Arc<Semaphore>,
    max: usize,
    per_owner: usize,
    open: Mutex<HashMap<Owner, usize>>,
}

/// One open stream's slot, given back when the stream ends.
#[derive(Debug)]
pub(crate) struct StreamSlot {
    _all: OwnedSemaphorePermit,
    slots: Arc<StreamSlots>,
    owner: Owner,
}

impl StreamSlots {
    /// Room for `max` streams, at most `per_owner` of them an owner's (both at least 1).
    pub(crate) fn new(max: usize, per_owner: usize) -> Arc<Self> {
        let max = max.max(1);
        Arc::new(StreamSlots {
            all: Arc::new(Semaphore::new(max)),
            max,
            per_owner: per_owner.clamp(1, max),
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for one more stream of `owner`, or the error naming the cap reached.
    pub(crate) fn take(self: &Arc<Self>, owner: &Owner) -> Result<StreamSlot, Error> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.get(owner).copied().unwrap_or(0);
        if count >= self.per_owner {
            return Err(Error::with_message(
                ErrorKind::Internal,
                format!(
                    "this caller has its {} streams open; close one or try again later",
                    self.per_owner
                ),
            ));
        }
        let all = self.all.clone().try_acquire_owned().map_err(|_| {
            Error::with_message(
                ErrorKind::Internal,
                format!(
                    "this server has its {} streams open; try again later",
                    self.max
                ),
            )
        })?;
        open.insert(owner.clone(), count + 1);
        Ok(StreamSlot {
            _all: all,
            slots: self.clone(),
            owner: owner.clone(),
        })
    }

    /// Streams open now.
    pub(crate) fn open(&self) -> usize {
        self.max - self.all.available_permits()
    }
}

impl Drop for StreamSlot {
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
        let slots = StreamSlots::new(10, 2);
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
        let slots = StreamSlots::new(2, 2);
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
}
