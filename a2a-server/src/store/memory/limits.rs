//! [`MemoryLimits`]: how many tasks and bytes an [`InMemoryTaskStore`](super::InMemoryTaskStore)
//! keeps, in all, per owner and per task, and the defaults with the reasons for them.

/// One mebibyte.
const MIB: usize = 1024 * 1024;

/// The bounds of an [`InMemoryTaskStore`](super::InMemoryTaskStore).
///
/// Defaults, and why:
///
/// | limit | default | why |
/// |---|---|---|
/// | [`max_tasks`](Self::max_tasks) | 10,000 | tasks of every owner together |
/// | [`max_tasks_per_owner`](Self::max_tasks_per_owner) | 1,000 (a tenth of `max_tasks`) | one caller (every anonymous caller counts as one) fills a tenth of the store at most, so it takes ten owners at their cap to fill it, while one user keeps room for a thousand tasks |
/// | [`max_bytes`](Self::max_bytes) | 256 MiB | what the tasks may hold in all, event logs included |
/// | [`max_bytes_per_owner`](Self::max_bytes_per_owner) | 64 MiB (a quarter of `max_bytes`) | one owner fills a quarter of the bytes at most, and still holds two tasks of the largest size |
/// | [`max_task_bytes`](Self::max_task_bytes) | 32 MiB | twice the server's default request budget (16 MiB): a task keeps a message of the largest size and an artifact as big; its event log and then its oldest messages are dropped to stay within it |
/// | [`max_events_per_task`](Self::max_events_per_task) | 256 | events kept per task for streams to resume from |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryLimits {
    /// Tasks kept at most, of all owners (10,000 by default).
    pub max_tasks: usize,
    /// Tasks kept at most per owner: one principal in one tenant, every anonymous caller
    /// together counting as one owner (1,000 by default).
    pub max_tasks_per_owner: usize,
    /// Bytes the tasks hold at most, event logs included (256 MiB by default).
    pub max_bytes: usize,
    /// Bytes one owner's tasks hold at most (64 MiB by default).
    pub max_bytes_per_owner: usize,
    /// Bytes one task holds at most, its event log included (32 MiB by default).
    pub max_task_bytes: usize,
    /// Events kept per task (256 by default).
    pub max_events_per_task: usize,
}

impl Default for MemoryLimits {
    fn default() -> Self {
        MemoryLimits {
            max_tasks: 10_000,
            max_tasks_per_owner: 1_000,
            max_bytes: 256 * MIB,
            max_bytes_per_owner: 64 * MIB,
            max_task_bytes: 32 * MIB,
            max_events_per_task: 256,
        }
    }
}

impl MemoryLimits {
    /// These limits with at most `max_tasks` tasks (and no more per owner).
    pub fn with_max_tasks(mut self, max_tasks: usize) -> Self {
        self.max_tasks = max_tasks.max(1);
        self.max_tasks_per_owner = self.max_tasks_per_owner.min(self.max_tasks);
        self
    }

    /// These limits with at most `max_tasks` tasks per owner.
    pub fn with_max_tasks_per_owner(mut self, max_tasks: usize) -> Self {
        self.max_tasks_per_owner = max_tasks.max(1);
        self
    }

    /// These limits with at most `max_bytes` bytes in all (and no more per owner or task).
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes.max(1);
        self.max_bytes_per_owner = self.max_bytes_per_owner.min(self.max_bytes);
        self.max_task_bytes = self.max_task_bytes.min(self.max_bytes);
        self
    }

    /// These limits with at most `max_bytes` bytes per owner (and no more per task).
    pub fn with_max_bytes_per_owner(mut self, max_bytes: usize) -> Self {
        self.max_bytes_per_owner = max_bytes.max(1);
        self.max_task_bytes = self.max_task_bytes.min(self.max_bytes_per_owner);
        self
    }

    /// These limits with at most `max_bytes` bytes per task.
    pub fn with_max_task_bytes(mut self, max_bytes: usize) -> Self {
        self.max_task_bytes = max_bytes.max(1);
        self
    }

    /// These limits with at most `max_events` events per task.
    pub fn with_max_events_per_task(mut self, max_events: usize) -> Self {
        self.max_events_per_task = max_events.max(1);
        self
    }
}
