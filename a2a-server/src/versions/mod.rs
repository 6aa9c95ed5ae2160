//! The fan-out of task updates to streams: a [`VersionBus`] says that a task has a new version; each
//! stream then reads the events it has not sent from the task store's log (see [`crate::store`]).
//!
//! Only the newest version travels on the bus (a `watch` per task, one value), never the events, so
//! the bus holds one number per watched task however slowly streams read: a stream that stops
//! reading holds its place in the log, not a queue of copies. A bus shared by replicas (a
//! database's notifications, say) implements the same two methods, and can keep its watchers in
//! the same [`VersionWatchers`] map as the in-process [`InMemoryVersionBus`].

mod bus;
mod memory;
mod watchers;

pub use bus::VersionBus;
pub use memory::InMemoryVersionBus;
pub use watchers::{VersionWatch, VersionWatchers};
