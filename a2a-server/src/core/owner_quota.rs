//! What a caller makes the server hold for it ([`OwnerQuota`]), counted per owner and in all,
//! with waits for room: bytes of events, or things at once (webhook attempts in flight). Bytes:
//! the events streams hold for their clients (every event a stream has queued and the one its
//! client's connection is writing: [`ServerConfig::max_stream_bytes`](crate::ServerConfig) and
//! `max_stream_bytes_per_owner`), and the events of webhook deliveries not yet made
//! ([`PushSettings::max_pending_bytes`](crate::PushSettings) and `max_pending_bytes_per_owner`).
//!
//! Counting streams or deliveries alone is not enough: a hundred streams of a 12 MiB task that
//! nobody reads hold a copy of the task each. With a ledger a caller that holds its share waits
//! (a running stream pauses before reading more from the log until its clients read) or is refused
//! (a new stream; a delivery, dropped and logged), and every other owner keeps its own share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use a2a_protocol::errors::Error;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::auth::Owner;

/// A byte ledger's unit: an event is counted in whole kibibytes (at least one).
const KIB: usize = 1024;
/// When a refused caller is told to try again: its clients free room as they read.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// Bytes (or things) held for callers, in all and per owner.
#[derive(Debug)]
pub(crate) struct OwnerQuota {
    /// What holds them, plural (`streams`, `webhook deliveries`), for the refusals.
    what: &'static str,
    /// What one permit stands for: a kibibyte, or one of what is counted.
    unit: usize,
    all: Arc<Semaphore>,
    max_units: u32,
    per_owner_units: u32,
    /// Each owner's share while it holds any; dropped when all of it is given back.
    owners: Mutex<HashMap<Owner, Arc<Semaphore>>>,
}

/// What one event (or one thing) holds, given back when dropped (for a stream: when its client asks for the next
/// event, which its connection does once it has written this one, or when the stream ends; for a
/// delivery: when every webhook of the event has been attempted for the last time).
#[derive(Debug)]
pub(crate) struct HeldBytes {
    owner_permit: Option<OwnedSemaphorePermit>,
    all_permit: Option<OwnedSemaphorePermit>,
    share: Arc<Semaphore>,
    ledger: Arc<OwnerQuota>,
    owner: Owner,
}

impl OwnerQuota {
    /// Room for `max_bytes` of `what` in all, at most `per_owner_quota` of them an owner's.
    pub(crate) fn new(what: &'static str, max_bytes: usize, per_owner_quota: usize) -> Arc<Self> {
        Self::with_unit(what, KIB, max_bytes, per_owner_quota)
    }

    /// Room for `max` of `what` at once (counted one by one), at most `per_owner` of them an
    /// owner's, each taken with `hold(owner, 1)`.
    pub(crate) fn counting(what: &'static str, max: usize, per_owner: usize) -> Arc<Self> {
        Self::with_unit(what, 1, max, per_owner)
    }

    fn with_unit(what: &'static str, unit: usize, max: usize, per_owner: usize) -> Arc<Self> {
        let max_units = units(max, unit);
        Arc::new(OwnerQuota {
            what,
            unit,
            all: Arc::new(Semaphore::new(max_units as usize)),
            max_units,
            per_owner_units: units(per_owner, unit).min(max_units),
            owners: Mutex::new(HashMap::new()),
        })
    }

    /// Room for an event of `bytes` of `owner`'s now, or the temporary refusal naming the share
    /// that is full (for a new stream, whose caller can try again).
    pub(crate) fn try_hold(
        self: &Arc<Self>,
        owner: &Owner,
        bytes: usize,
    ) -> Result<HeldBytes, Error> {
        let (share, needed) = self.share(owner, bytes);
        let Ok(owner_permit) = share.clone().try_acquire_many_owned(needed) else {
            self.forget_if_whole(owner, &share);
            return Err(Error::unavailable(
                format!(
                    "this caller's {} hold {} of events not yet sent; try again once they are",
                    self.what,
                    self.amount(self.per_owner_units)
                ),
                RETRY_AFTER,
            ));
        };
        let Ok(all_permit) = self.all.clone().try_acquire_many_owned(needed) else {
            drop(owner_permit);
            self.forget_if_whole(owner, &share);
            return Err(Error::unavailable(
                format!(
                    "this server's {} hold {} of events not yet sent; try again later",
                    self.what,
                    self.amount(self.max_units)
                ),
                RETRY_AFTER,
            ));
        };
        Ok(self.held(owner, share, owner_permit, all_permit))
    }

    /// Room for an event of `bytes` of `owner`'s, waiting until the owner's clients (and, when the
    /// server's whole room is taken, anyone's) have read enough.
    pub(crate) async fn hold(self: &Arc<Self>, owner: &Owner, bytes: usize) -> HeldBytes {
        let (share, needed) = self.share(owner, bytes);
        // Neither semaphore is ever closed, so the waits end only with a permit.
        let owner_permit = share
            .clone()
            .acquire_many_owned(needed)
            .await
            .expect("an owner's share is never closed");
        let all_permit = self
            .all
            .clone()
            .acquire_many_owned(needed)
            .await
            .expect("the ledger is never closed");
        self.held(owner, share, owner_permit, all_permit)
    }

    /// Units held now, in all.
    #[cfg(test)]
    pub(crate) fn held_units(&self) -> usize {
        self.max_units as usize - self.all.available_permits()
    }

    /// The owner's share (made when it holds nothing) and the units `bytes` needs of it; an event
    /// larger than a share needs the whole share, so it can still be sent once the rest is read.
    fn share(&self, owner: &Owner, bytes: usize) -> (Arc<Semaphore>, u32) {
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        // The owner's key is copied only for a new share: an event is held at every step of a
        // stream.
        let share = match owners.get(owner) {
            Some(share) => share.clone(),
            None => owners
                .entry(owner.clone())
                .or_insert_with(|| Arc::new(Semaphore::new(self.per_owner_units as usize)))
                .clone(),
        };
        (share, units(bytes, self.unit).min(self.per_owner_units))
    }

    /// Drops `owner`'s share when no one else holds it: the map and the caller's `share` are its
    /// only references (every permit and every waiter holds one, and shares are only handed out
    /// under this lock), so all of it is back; the owner's next event makes a new one.
    fn forget_if_whole(&self, owner: &Owner, share: &Arc<Semaphore>) {
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        if Arc::strong_count(share) == 2
            && owners
                .get(owner)
                .is_some_and(|current| Arc::ptr_eq(current, share))
        {
            owners.remove(owner);
        }
    }

    fn held(
        self: &Arc<Self>,
        owner: &Owner,
        share: Arc<Semaphore>,
        owner_permit: OwnedSemaphorePermit,
        all_permit: OwnedSemaphorePermit,
    ) -> HeldBytes {
        HeldBytes {
            owner_permit: Some(owner_permit),
            all_permit: Some(all_permit),
            share,
            ledger: self.clone(),
            owner: owner.clone(),
        }
    }
}

impl Drop for HeldBytes {
    fn drop(&mut self) {
        drop(self.all_permit.take());
        drop(self.owner_permit.take());
        self.ledger.forget_if_whole(&self.owner, &self.share);
    }
}

/// Whole units covering `amount`, at least one, within what a semaphore counts.
fn units(amount: usize, unit: usize) -> u32 {
    u32::try_from(amount.div_ceil(unit).max(1))
        .unwrap_or(u32::MAX)
        .min(Semaphore::MAX_PERMITS as u32)
}

impl OwnerQuota {
    /// `units` as people read them: mebibytes for a byte ledger, a number otherwise.
    fn amount(&self, units: u32) -> String {
        if self.unit == KIB {
            format!("{} MiB", units as usize * KIB / (1024 * 1024))
        } else {
            units.to_string()
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

    const MIB: usize = 1024 * 1024;

    #[test]
    fn an_owner_over_its_share_is_refused_and_others_are_not() {
        let ledger = OwnerQuota::new("streams", 16 * MIB, 4 * MIB);
        let (anonymous, member) = (owner(""), owner("member"));
        let first = ledger
            .try_hold(&anonymous, 3 * MIB)
            .expect("within the share");
        let refused = ledger
            .try_hold(&anonymous, 2 * MIB)
            .expect_err("over the owner's share");
        assert!(
            refused.message.contains("hold 4 MiB"),
            "{}",
            refused.message
        );
        let _members = ledger
            .try_hold(&member, 3 * MIB)
            .expect("another owner's share");
        drop(first);
        ledger
            .try_hold(&anonymous, 2 * MIB)
            .expect("read events give their room back");
    }

    #[test]
    fn the_room_in_all_still_holds_and_a_refusal_keeps_nothing() {
        let ledger = OwnerQuota::new("streams", 4 * MIB, 4 * MIB);
        let _a = ledger.try_hold(&owner("a"), 3 * MIB).expect("a");
        let before = ledger.held_units();
        let refused = ledger.try_hold(&owner("b"), 2 * MIB).expect_err("full");
        assert!(refused.message.contains("this server's streams"));
        assert_eq!(ledger.held_units(), before);
        assert!(!ledger.owners.lock().unwrap().contains_key(&owner("b")));
    }

    #[test]
    fn an_event_larger_than_a_share_takes_the_whole_share() {
        let ledger = OwnerQuota::new("streams", 64 * MIB, 2 * MIB);
        let whole = ledger
            .try_hold(&owner("a"), 40 * MIB)
            .expect("counted as the share");
        assert_eq!(ledger.held_units(), 2 * 1024);
        drop(whole);
        assert_eq!(ledger.held_units(), 0);
        assert!(ledger.owners.lock().unwrap().is_empty(), "the share went");
    }

    #[tokio::test]
    async fn a_waiting_event_is_sent_once_the_client_reads() {
        let ledger = OwnerQuota::new("streams", 16 * MIB, 2 * MIB);
        let held = ledger.hold(&owner("a"), 2 * MIB).await;
        let waiting = {
            let ledger = ledger.clone();
            tokio::spawn(async move { ledger.hold(&owner("a"), MIB).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "the owner's share is full");
        drop(held);
        let next = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("room came back")
            .expect("task");
        assert_eq!(ledger.held_units(), 1024);
        drop(next);
    }
}
