//! Who holds what in the in-memory store, and which task goes when a write does not fit: the
//! [`Ledger`] counts tasks and bytes in all and per [`Holder`], and keeps each holder's finished
//! (terminal) tasks ordered by their last write, so the next task to evict is found in
//! O(log n), never by a scan of the store.
//!
//! The rule ([`Ledger::next_eviction`]), for a write by one holder:
//! 1. over its own cap (tasks or bytes per owner): its own least recently written finished task
//!    goes; when it has none, the write is refused ([`Limit::TasksPerOwner`] or
//!    [`Limit::BytesPerOwner`]);
//! 2. the store over its total (tasks or bytes): the writer's own least recently written finished
//!    task goes first; when it has none, the least recently written finished task of the holder
//!    holding the most (tasks, or bytes when bytes are over), provided that holder holds more
//!    than the writer: a holder only ever loses a task to one holding less, so a flood of
//!    creations by one caller evicts only its own tasks, and never a task that is not finished.
//!    Otherwise the write is refused ([`Limit::Tasks`] or [`Limit::Bytes`]).

use std::collections::{BTreeSet, HashMap};

use super::MemoryLimits;
use crate::auth::Owner;

/// Whose quota a task counts against: one principal in one tenant, every anonymous caller
/// (whatever tenant it names) together as one, so naming tenants gives no more room.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Holder {
    principal: String,
    tenant: String,
}

impl Holder {
    /// The holder that `owner`'s tasks count against.
    pub(super) fn of(owner: &Owner) -> Holder {
        if owner.principal.is_empty() {
            Holder::default()
        } else {
            Holder {
                principal: owner.principal.clone(),
                tenant: owner.tenant.clone(),
            }
        }
    }

    /// The heap this holder's strings own.
    pub(super) fn heap_bytes(&self) -> usize {
        self.principal.capacity() + self.tenant.capacity()
    }
}

/// What one stored task counts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Footprint {
    /// Its last write (the eviction order).
    pub(super) touched: u64,
    /// Whether it is finished, so it may be evicted.
    pub(super) terminal: bool,
    /// The bytes it holds.
    pub(super) bytes: usize,
}

/// A bound a write would break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Limit {
    Tasks,
    TasksPerOwner,
    Bytes,
    BytesPerOwner,
    TaskBytes,
}

impl Limit {
    /// The name of the [`MemoryLimits`] field.
    pub(super) fn name(self) -> &'static str {
        match self {
            Limit::Tasks => "max_tasks",
            Limit::TasksPerOwner => "max_tasks_per_owner",
            Limit::Bytes => "max_bytes",
            Limit::BytesPerOwner => "max_bytes_per_owner",
            Limit::TaskBytes => "max_task_bytes",
        }
    }

    /// Why the write is refused, for the caller.
    pub(super) fn problem(self, limits: &MemoryLimits) -> String {
        let name = self.name();
        match self {
            Limit::Tasks => format!(
                "the task store holds its {} tasks (MemoryLimits::{name}) and none that may \
                 go to make room; try again once tasks have finished",
                limits.max_tasks
            ),
            Limit::TasksPerOwner => format!(
                "this caller holds its {} tasks (MemoryLimits::{name}), none of them finished; \
                 try again once one has finished",
                limits.max_tasks_per_owner
            ),
            Limit::Bytes => format!(
                "the task store holds its {} bytes (MemoryLimits::{name}) and no task that may \
                 go to make room; try again once tasks have finished",
                limits.max_bytes
            ),
            Limit::BytesPerOwner => format!(
                "this caller's tasks hold its {} bytes (MemoryLimits::{name}), and none of its \
                 finished tasks may go to make room; try again once one has finished",
                limits.max_bytes_per_owner
            ),
            Limit::TaskBytes => format!(
                "the task would hold more than {} bytes (MemoryLimits::{name}) even without its \
                 event log and history",
                limits.max_task_bytes
            ),
        }
    }
}

/// One holder's tasks.
#[derive(Debug, Default)]
struct Holding {
    tasks: usize,
    bytes: usize,
    /// Its finished tasks by last write, oldest first.
    finished: BTreeSet<(u64, String)>,
}

/// Tasks and bytes in all and per holder, and the finished tasks in eviction order.
#[derive(Debug, Default)]
pub(super) struct Ledger {
    holdings: HashMap<Holder, Holding>,
    /// The holders with a finished task, by tasks held.
    by_tasks: BTreeSet<(usize, Holder)>,
    /// The holders with a finished task, by bytes held.
    by_bytes: BTreeSet<(usize, Holder)>,
    tasks: usize,
    bytes: usize,
}

impl Ledger {
    /// Bytes held in all.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Bytes `holder` holds.
    pub(super) fn bytes_of(&self, holder: &Holder) -> usize {
        self.holdings.get(holder).map_or(0, |h| h.bytes)
    }

    /// Counts task `id` of `holder`.
    pub(super) fn add(&mut self, holder: &Holder, id: &str, footprint: Footprint) {
        self.tasks += 1;
        self.bytes += footprint.bytes;
        self.change(holder, |holding| {
            holding.tasks += 1;
            holding.bytes += footprint.bytes;
            if footprint.terminal {
                holding.finished.insert((footprint.touched, id.to_owned()));
            }
        });
    }

    /// Stops counting task `id` of `holder`, as `add` counted it.
    pub(super) fn remove(&mut self, holder: &Holder, id: &str, footprint: Footprint) {
        self.tasks -= 1;
        self.bytes -= footprint.bytes;
        self.change(holder, |holding| {
            holding.tasks -= 1;
            holding.bytes -= footprint.bytes;
            if footprint.terminal {
                holding.finished.remove(&(footprint.touched, id.to_owned()));
            }
        });
    }

    /// Counts task `id` of `holder` as `now` where it counted as `before` (a write changed it):
    /// what `remove` then `add` would do, in one change of the holding.
    pub(super) fn recount(&mut self, holder: &Holder, id: &str, before: Footprint, now: Footprint) {
        self.bytes = self.bytes - before.bytes + now.bytes;
        self.change(holder, |holding| {
            holding.bytes = holding.bytes - before.bytes + now.bytes;
            if before.terminal && (!now.terminal || before.touched != now.touched) {
                holding.finished.remove(&(before.touched, id.to_owned()));
            }
            if now.terminal && (!before.terminal || before.touched != now.touched) {
                holding.finished.insert((now.touched, id.to_owned()));
            }
        });
    }

    /// Changes `holder`'s holding, keeping the indexes of holders in step (O(log n)); an index
    /// whose key did not change is left as it is.
    fn change(&mut self, holder: &Holder, change: impl FnOnce(&mut Holding)) {
        if !self.holdings.contains_key(holder) {
            self.holdings.insert(holder.clone(), Holding::default());
        }
        let Some(holding) = self.holdings.get_mut(holder) else {
            return;
        };
        let (tasks, bytes, indexed) = (holding.tasks, holding.bytes, !holding.finished.is_empty());
        change(holding);
        let (new_tasks, new_bytes) = (holding.tasks, holding.bytes);
        let now_indexed = !holding.finished.is_empty();
        let emptied = holding.tasks == 0;
        if indexed && (!now_indexed || tasks != new_tasks) {
            self.by_tasks.remove(&(tasks, holder.clone()));
        }
        if now_indexed && (!indexed || tasks != new_tasks) {
            self.by_tasks.insert((new_tasks, holder.clone()));
        }
        if indexed && (!now_indexed || bytes != new_bytes) {
            self.by_bytes.remove(&(bytes, holder.clone()));
        }
        if now_indexed && (!indexed || bytes != new_bytes) {
            self.by_bytes.insert((new_bytes, holder.clone()));
        }
        if emptied {
            self.holdings.remove(holder);
        }
    }

    /// After `holder` wrote its task `written` (counted already): `Ok(None)` when every bound
    /// holds, else the task to evict next (see the [module docs](self)), or the bound that
    /// cannot be kept.
    pub(super) fn next_eviction(
        &self,
        holder: &Holder,
        written: &str,
        limits: &MemoryLimits,
    ) -> Result<Option<(Holder, String)>, Limit> {
        let Some(own) = self.holdings.get(holder) else {
            return Ok(None);
        };
        // The written task is the newest: at most one step past it.
        let own_oldest = own
            .finished
            .iter()
            .map(|(_, id)| id)
            .find(|id| *id != written)
            .map(|id| (holder.clone(), id.clone()));
        let over_own = if own.tasks > limits.max_tasks_per_owner {
            Some(Limit::TasksPerOwner)
        } else if own.bytes > limits.max_bytes_per_owner {
            Some(Limit::BytesPerOwner)
        } else {
            None
        };
        if let Some(limit) = over_own {
            return own_oldest.map(Some).ok_or(limit);
        }
        let (index, held, limit) = if self.tasks > limits.max_tasks {
            (&self.by_tasks, own.tasks, Limit::Tasks)
        } else if self.bytes > limits.max_bytes {
            (&self.by_bytes, own.bytes, Limit::Bytes)
        } else {
            return Ok(None);
        };
        if own_oldest.is_some() {
            return Ok(own_oldest);
        }
        // The writer is in the index only through its written task: at most one step past it.
        for (other_held, other) in index.iter().rev() {
            if other == holder {
                continue;
            }
            if *other_held <= held {
                break;
            }
            let oldest = self.holdings[other].finished.first();
            return Ok(oldest.map(|(_, id)| (other.clone(), id.clone())));
        }
        Err(limit)
    }
}

#[cfg(test)]
impl Ledger {
    /// Panics unless the ledger counts exactly `entries` (id, holder, footprint): totals,
    /// holdings, finished tasks in write order, and both indexes of holders.
    pub(super) fn assert_counts<'a>(
        &self,
        entries: impl Iterator<Item = (&'a str, &'a Holder, Footprint)>,
    ) {
        let mut expected: HashMap<Holder, Holding> = HashMap::new();
        let (mut tasks, mut bytes) = (0, 0);
        for (id, holder, footprint) in entries {
            tasks += 1;
            bytes += footprint.bytes;
            let holding = expected.entry(holder.clone()).or_default();
            holding.tasks += 1;
            holding.bytes += footprint.bytes;
            if footprint.terminal {
                holding.finished.insert((footprint.touched, id.to_owned()));
            }
        }
        assert_eq!((self.tasks, self.bytes), (tasks, bytes), "totals");
        assert_eq!(self.holdings.len(), expected.len(), "holders");
        for (holder, holding) in &expected {
            let counted = &self.holdings[holder];
            assert_eq!(
                (counted.tasks, counted.bytes, &counted.finished),
                (holding.tasks, holding.bytes, &holding.finished),
                "{holder:?}"
            );
        }
        let with_finished = expected.iter().filter(|(_, h)| !h.finished.is_empty());
        let by_tasks: BTreeSet<_> = with_finished
            .clone()
            .map(|(holder, h)| (h.tasks, holder.clone()))
            .collect();
        let by_bytes: BTreeSet<_> = with_finished
            .map(|(holder, h)| (h.bytes, holder.clone()))
            .collect();
        assert_eq!((&self.by_tasks, &self.by_bytes), (&by_tasks, &by_bytes));
    }
}
