//! Slices of tasks, shared by both databases: a slice holds the tasks whose ids fall in one span
//! of creation time (the server's ids begin with the millisecond they were made), in tables of
//! its own, so that retention drops a slice whose tasks all expired as whole tables instead of
//! deleting its rows one by one.
//!
//! PostgreSQL partitions its two task tables by range of id, and the database routes every
//! statement itself (`postgres::slices`). SQLite has no partitions: there the store routes its
//! statements to a slice's tables by the task's id ([`SliceSet::tables_of`]), and reads every
//! slice at once with `UNION ALL` where a statement reads tasks of many ids
//! ([`SliceSet::all_tasks`]); `sqlite::slices` makes and drops them. On PostgreSQL the set stays
//! empty and every statement names the partitioned tables.

use std::borrow::Cow;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

/// Ages of ended tasks under this are kept without slices: slices a quarter of it wide would
/// each hold seconds of tasks, and the pass would make and drop tables all the time.
pub(crate) const MIN_SLICED_AGE: Duration = Duration::from_secs(4 * 60);

/// The widest slice: a day.
const MAX_WIDTH: Duration = Duration::from_secs(24 * 60 * 60);

/// Slices one pass makes at most, so a pass after a long pause (or a clock jump) stays short.
pub(crate) const MAX_MADE_PER_PASS: usize = 64;

/// The table of tasks outside every slice (on PostgreSQL, the partitioned parent of them all).
pub(crate) const TASKS: &str = "a2a_tasks";

/// The table of events outside every slice (on PostgreSQL, the partitioned parent of them all).
pub(crate) const EVENTS: &str = "a2a_task_events";

/// A slice: the tasks made from `low_ms` up to (not including) `high_ms`, milliseconds since the
/// epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Slice {
    pub(crate) low_ms: i64,
    pub(crate) high_ms: i64,
}

impl Slice {
    /// The task table of the slice.
    pub(crate) fn tasks(&self) -> String {
        format!("{TASKS}_{}_{}", self.low_ms, self.high_ms)
    }

    /// The event table of the slice.
    pub(crate) fn events(&self) -> String {
        format!("{EVENTS}_{}_{}", self.low_ms, self.high_ms)
    }

    /// The slice's tables.
    pub(crate) fn tables(&self) -> TaskTables {
        TaskTables {
            tasks: Cow::Owned(self.tasks()),
            events: Cow::Owned(self.events()),
        }
    }

    /// The first id of the slice, and the first after it.
    pub(crate) fn ids(&self) -> (String, String) {
        (first_id_at(self.low_ms), first_id_at(self.high_ms))
    }

    /// The slice a task table's name describes; `None` for any other table.
    pub(crate) fn of_table(name: &str) -> Option<Slice> {
        let (low, high) = name.strip_prefix("a2a_tasks_")?.split_once('_')?;
        let slice = Slice {
            low_ms: low.parse().ok()?,
            high_ms: high.parse().ok()?,
        };
        (slice.low_ms < slice.high_ms).then_some(slice)
    }
}

/// The slices named among `names` (tables' names; the others are left out), oldest first.
pub(crate) fn named(names: &[String]) -> Vec<Slice> {
    let mut slices: Vec<Slice> = names
        .iter()
        .filter_map(|name| Slice::of_table(name))
        .collect();
    slices.sort();
    slices
}

/// The slices to make after `existing` so that the tasks made until `until_ms` have one: after
/// the last slice when it ends at `earliest_ms` or later, and otherwise from `fresh_ms` (each
/// backend says where a new run may begin).
pub(crate) fn run_after(
    existing: &[Slice],
    earliest_ms: i64,
    fresh_ms: i64,
    width_ms: i64,
    until_ms: i64,
) -> Vec<Slice> {
    let low = match existing.last() {
        Some(last) if last.high_ms >= earliest_ms => last.high_ms,
        _ => fresh_ms,
    };
    run_from(low, width_ms, until_ms)
}

/// A run of slices from `low_ms`, each ending on the next multiple of `width_ms`, until one would
/// begin at `until_ms` or later, [`MAX_MADE_PER_PASS`] at most; a slice that would end past the
/// end of time ends the run.
fn run_from(mut low_ms: i64, width_ms: i64, until_ms: i64) -> Vec<Slice> {
    let width_ms = width_ms.max(1);
    let mut made = Vec::new();
    while low_ms < until_ms && made.len() < MAX_MADE_PER_PASS {
        let Some(high_ms) = low_ms
            .div_euclid(width_ms)
            .checked_add(1)
            .and_then(|n| n.checked_mul(width_ms))
        else {
            break;
        };
        made.push(Slice { low_ms, high_ms });
        low_ms = high_ms;
    }
    made
}

/// The first task id made at `ms` (milliseconds since the epoch) or later: `task-` and the
/// millisecond as the 12 hex digits a UUID of version 7 begins with.
pub(crate) fn first_id_at(ms: i64) -> String {
    format!("task-{:012x}", ms.max(0))
}

/// The width of the slices of a store keeping ended tasks `age`; `None` below
/// [`MIN_SLICED_AGE`].
pub(crate) fn slice_width(age: Duration) -> Option<Duration> {
    (age >= MIN_SLICED_AGE).then(|| (age / 4).min(MAX_WIDTH))
}

/// `duration` in whole milliseconds, saturating.
pub(crate) fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// The two tables a task's rows are in: its own row's and its events'.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TaskTables {
    pub(crate) tasks: Cow<'static, str>,
    pub(crate) events: Cow<'static, str>,
}

impl TaskTables {
    /// The tables outside every slice.
    pub(crate) const BASE: TaskTables = TaskTables {
        tasks: Cow::Borrowed(TASKS),
        events: Cow::Borrowed(EVENTS),
    };

    /// `statement`, written for the tables outside every slice, naming these instead: each
    /// `a2a_tasks` and `a2a_task_events` that stands as a name of its own (not inside a longer
    /// one, such as `a2a_task_counts` or an index's name) is replaced.
    pub(crate) fn route<'a>(&self, statement: &'a str) -> Cow<'a, str> {
        if *self == Self::BASE {
            return Cow::Borrowed(statement);
        }
        let routed = replace_name(statement, TASKS, &self.tasks);
        Cow::Owned(replace_name(&routed, EVENTS, &self.events))
    }
}

/// `text` with every `name` standing alone (no letter, digit or `_` on either side) replaced
/// by `with`.
pub(crate) fn replace_name(text: &str, name: &str, with: &str) -> String {
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len() + with.len());
    let mut rest = 0;
    for (at, _) in text.match_indices(name) {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        if before.is_some_and(is_name_char) || after.is_some_and(is_name_char) {
            continue;
        }
        out.push_str(&text[rest..at]);
        out.push_str(with);
        rest = at + name.len();
    }
    out.push_str(&text[rest..]);
    out
}

/// A slice with its first id and the first id after it, to route by.
#[derive(Debug)]
struct Bounds {
    slice: Slice,
    from: String,
    to: String,
}

/// The slices the store's statements are routed to (SQLite's; empty on PostgreSQL, whose
/// database routes them), shared by the store's clones and its writer thread. Changed only by
/// the one holding the store's writer connection, which every write of a task's row holds too
/// (see `sqlite::slices` for why that keeps each task in one table).
#[derive(Debug, Default)]
pub struct SliceSet {
    slices: RwLock<Arc<[Bounds]>>,
}

impl SliceSet {
    /// The slices, oldest first.
    pub(crate) fn slices(&self) -> Vec<Slice> {
        self.current().iter().map(|bounds| bounds.slice).collect()
    }

    /// Adds `slice` to the set.
    pub(crate) fn add(&self, slice: Slice) {
        self.change(|slices| slices.push(slice));
    }

    /// Takes `slice` out of the set.
    pub(crate) fn remove(&self, slice: Slice) {
        self.change(|slices| slices.retain(|kept| *kept != slice));
    }

    /// Changes the set by `change`, under its lock.
    fn change(&self, change: impl FnOnce(&mut Vec<Slice>)) {
        let mut current = self.slices.write().unwrap_or_else(PoisonError::into_inner);
        let mut slices: Vec<Slice> = current.iter().map(|bounds| bounds.slice).collect();
        change(&mut slices);
        *current = Self::bounds(slices);
    }

    /// Makes `slices` the set.
    pub(crate) fn replace(&self, slices: Vec<Slice>) {
        *self.slices.write().unwrap_or_else(PoisonError::into_inner) = Self::bounds(slices);
    }

    /// `slices`, sorted, each with its bounds.
    fn bounds(mut slices: Vec<Slice>) -> Arc<[Bounds]> {
        slices.sort();
        slices.dedup();
        slices
            .into_iter()
            .map(|slice| {
                let (from, to) = slice.ids();
                Bounds { slice, from, to }
            })
            .collect()
    }

    fn current(&self) -> Arc<[Bounds]> {
        self.slices
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The tables task `task_id`'s rows are in: its slice's, or those outside every slice.
    pub(crate) fn tables_of(&self, task_id: &str) -> TaskTables {
        let current = self.current();
        // The first slice whose ids end after this one; it holds the id when it begins at or
        // before it. Ids compare byte by byte, as SQLite compares them.
        let next = current.partition_point(|bounds| bounds.to.as_str() <= task_id);
        match current.get(next) {
            Some(bounds) if bounds.from.as_str() <= task_id => bounds.slice.tables(),
            _ => TaskTables::BASE,
        }
    }

    /// Every table of tasks: those outside every slice, then each slice's.
    pub(crate) fn every_table(&self) -> Vec<TaskTables> {
        std::iter::once(TaskTables::BASE)
            .chain(self.current().iter().map(|bounds| bounds.slice.tables()))
            .collect()
    }

    /// What a statement reading tasks of many ids reads from in place of `a2a_tasks`: that
    /// table alone when there is no slice, otherwise a subquery of every task table's rows
    /// (`UNION ALL`), named `a2a_tasks`. SQLite pushes the statement's conditions into each
    /// table's part, and a listing in index order reads each in that order, merging them.
    pub(crate) fn all_tasks(&self) -> Cow<'static, str> {
        let current = self.current();
        if current.is_empty() {
            return Cow::Borrowed(TASKS);
        }
        let mut union = format!("(SELECT * FROM {TASKS}");
        for bounds in current.iter() {
            union.push_str(" UNION ALL SELECT * FROM ");
            union.push_str(&bounds.slice.tasks());
        }
        union.push_str(") AS ");
        union.push_str(TASKS);
        Cow::Owned(union)
    }
}

/// Whether `error` says a table is missing: a slice dropped between a statement's routing and
/// its run, whose tasks had all expired.
pub(crate) fn is_missing_table(error: &impl std::fmt::Display) -> bool {
    error.to_string().contains("no such table")
}

#[cfg(test)]
mod tests {
    //! Routing by id, the statements' names replaced, and the union of every table.

    use super::*;

    fn slice(low_ms: i64, high_ms: i64) -> Slice {
        Slice { low_ms, high_ms }
    }

    #[test]
    fn a_task_goes_to_the_slice_its_id_falls_in_and_any_other_id_outside_every_slice() {
        let set = SliceSet::default();
        assert_eq!(set.tables_of("task-000000000010"), TaskTables::BASE);
        set.replace(vec![
            slice(0x20, 0x30),
            slice(0x10, 0x20),
            slice(0x40, 0x50),
        ]);
        assert_eq!(
            set.slices(),
            [slice(0x10, 0x20), slice(0x20, 0x30), slice(0x40, 0x50)]
        );
        let id = |ms: i64| format!("{}7000-aaaa", first_id_at(ms));
        assert_eq!(set.tables_of(&id(0x10)).tasks, "a2a_tasks_16_32");
        assert_eq!(set.tables_of(&id(0x1f)).events, "a2a_task_events_16_32");
        assert_eq!(set.tables_of(&id(0x20)).tasks, "a2a_tasks_32_48");
        assert_eq!(set.tables_of(&first_id_at(0x20)).tasks, "a2a_tasks_32_48");
        for outside in [
            id(0x0f),
            id(0x30),
            id(0x3f),
            id(0x50),
            "my-task".into(),
            "zz".into(),
        ] {
            assert_eq!(set.tables_of(&outside), TaskTables::BASE, "{outside}");
        }
        assert_eq!(Slice::of_table("a2a_tasks_16_32"), Some(slice(16, 32)));
        assert_eq!(Slice::of_table("a2a_tasks_32_16"), None);
        assert_eq!(Slice::of_table("a2a_tasks_listing"), None);
    }

    #[test]
    fn a_statement_names_the_slice_tables_only_where_it_names_the_task_tables() {
        let tables = slice(1, 2).tables();
        assert_eq!(
            tables.route(
                "UPDATE a2a_tasks SET x = (SELECT MAX(version) FROM a2a_task_events \
                 WHERE task_id = a2a_tasks.id) WHERE a2a_tasks_listing AND a2a_task_counts \
                 AND \"a2a_task_events\""
            ),
            "UPDATE a2a_tasks_1_2 SET x = (SELECT MAX(version) FROM a2a_task_events_1_2 \
             WHERE task_id = a2a_tasks_1_2.id) WHERE a2a_tasks_listing AND a2a_task_counts \
             AND \"a2a_task_events_1_2\""
        );
        assert!(matches!(
            TaskTables::BASE.route("SELECT 1 FROM a2a_tasks"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn many_ids_are_read_from_every_table() {
        let set = SliceSet::default();
        assert_eq!(set.all_tasks(), "a2a_tasks");
        set.replace(vec![slice(1, 2), slice(2, 3)]);
        assert_eq!(
            set.all_tasks(),
            "(SELECT * FROM a2a_tasks UNION ALL SELECT * FROM a2a_tasks_1_2 \
             UNION ALL SELECT * FROM a2a_tasks_2_3) AS a2a_tasks"
        );
        let tables: Vec<_> = set.every_table().into_iter().map(|t| t.tasks).collect();
        assert_eq!(tables, ["a2a_tasks", "a2a_tasks_1_2", "a2a_tasks_2_3"]);
    }
}
