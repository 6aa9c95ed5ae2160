//! The fan-out of task updates to streams: a [`VersionBus`] says that a task has a new version; each
//! stream then sends the events it has not sent, which the task store's log holds (see
//! [`crate::store`]).
//!
//! What travels between processes is the newest version only, never the events: a stream on
//! another replica reads them from the log. Within one process, the server also hands the events
//! it has just written to the task's channel ([`VersionBus::publish_events`]), which keeps the
//! last of them (at most 64 events and 64 KiB a task, counted per owner), so a
//! stream beside the writer sends them without reading them back. A stream that finds a gap (an
//! event it was not handed, one no longer kept, or a version announced from elsewhere) reads the
//! log. Either way a stream that stops reading holds its place in the log, not a queue of copies:
//! the bus holds one version and at most one page of events per watched task. A bus shared by
//! replicas (a database's notifications, say) implements the same methods, and can keep its
//! watchers in the same [`VersionWatchers`] map as the in-process [`InMemoryVersionBus`]; such a
//! bus holds back what it hears of a task while this process writes to it
//! ([`VersionBus::writing_here`]), so that the write's own notification, coming back before the
//! events are handed over, does not send the task's streams to the log for them.

mod bus;
mod memory;
mod watchers;

pub use bus::VersionBus;
pub use memory::InMemoryVersionBus;
pub(crate) use watchers::RECENT_BYTES;
pub use watchers::{HandedEvent, VersionWatch, VersionWatchers, WritingHere};
