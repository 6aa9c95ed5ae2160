//! Counting what a store asks of its database: a `tracing` subscriber, installed once for the
//! whole test binary, records sqlx's statement events (target `sqlx::query`, one per statement
//! sent), the statements SQLite's writer thread runs itself ([`a2a_server_sql::STATEMENT_TARGET`])
//! and the stores' transaction events ([`a2a_server_sql::TRANSACTION_TARGET`]) in the order they
//! happen; [`Recorder::take`] hands over what was recorded since the last take as [`Cost`].
//!
//! Statements run on SQLite's worker thread, so the subscriber is the global one (a thread's own
//! subscriber would miss them); a test binary that counts runs its tests one at a time
//! ([`Recorder::exclusive`]).

use std::fmt;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::Registry;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

/// One thing the database was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// A statement sqlx sent: its first words, its text, the rows it changed.
    Statement { summary: String, rows_affected: u64 },
    /// A store's transaction opened.
    Begin,
    /// A store's transaction committed.
    Commit,
    /// A statement SQLite's writer thread ran on its own connection (no round trip): its text
    /// (`BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK` included), the rows it changed.
    Direct { summary: String, rows_affected: u64 },
}

/// The statements in `recorded`, one by one (a text of several split into its statements), the
/// transactions' `BEGIN` and `COMMIT` left out.
pub fn statement_texts(recorded: Vec<Recorded>) -> Vec<String> {
    recorded
        .into_iter()
        .filter_map(|entry| match entry {
            Recorded::Statement { summary, .. } | Recorded::Direct { summary, .. } => Some(summary),
            _ => None,
        })
        .flat_map(|text| {
            text.split(';')
                .map(str::trim)
                .filter(|sql| {
                    let upper = sql.to_ascii_uppercase();
                    !sql.is_empty() && !upper.starts_with("BEGIN") && !upper.starts_with("COMMIT")
                })
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// What one operation cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    /// Statements sent (reads and writes; not `BEGIN` or `COMMIT`).
    pub statements: f64,
    /// Of those, reads (`SELECT`s that change nothing).
    pub reads: f64,
    /// Transactions that wrote and committed (what reaches the disk): explicit ones that wrote,
    /// and each write sent on its own that changed a row (one that changed none writes nothing).
    pub commits: f64,
    /// Rows inserted, updated or deleted. Of a statement of several writes (PostgreSQL's update
    /// `WITH … UPDATE … INSERT …`) the task's row and its event's are counted, not the push
    /// deliveries (none without push configs) or the execution record it removes; of PostgreSQL's
    /// creation of a task `WITH … INSERT …`, the task's row and its execution's record.
    pub rows_written: f64,
    /// Requests to the database and their answers: the statements, and each `BEGIN` and `COMMIT`
    /// (statements sent as one text are one request).
    pub round_trips: f64,
}

impl Cost {
    /// The cost per one of `n` operations.
    pub fn per(self, n: f64) -> Cost {
        Cost {
            statements: self.statements / n,
            reads: self.reads / n,
            commits: self.commits / n,
            rows_written: self.rows_written / n,
            round_trips: self.round_trips / n,
        }
    }

    /// `self` and `other`, field by field.
    pub fn plus(self, other: Cost) -> Cost {
        Cost {
            statements: self.statements + other.statements,
            reads: self.reads + other.reads,
            commits: self.commits + other.commits,
            rows_written: self.rows_written + other.rows_written,
            round_trips: self.round_trips + other.round_trips,
        }
    }

    /// `self` less `other`, field by field.
    pub fn minus(self, other: Cost) -> Cost {
        Cost {
            statements: self.statements - other.statements,
            reads: self.reads - other.reads,
            commits: self.commits - other.commits,
            rows_written: self.rows_written - other.rows_written,
            round_trips: self.round_trips - other.round_trips,
        }
    }

    /// Whether no count of `self` is above `bound`'s.
    pub fn within(self, bound: Cost) -> bool {
        self.statements <= bound.statements
            && self.reads <= bound.reads
            && self.commits <= bound.commits
            && self.rows_written <= bound.rows_written
            && self.round_trips <= bound.round_trips
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.2} statements ({:.2} reads), {:.2} commits, {:.2} rows written, {:.2} round trips",
            self.statements, self.reads, self.commits, self.rows_written, self.round_trips
        )
    }
}

/// How many tables a statement writes (0: a read): one for a plain `INSERT`, `UPDATE` or
/// `DELETE`, each data-modifying part of a `WITH`; a notification alone counts as a write of no
/// table.
fn tables_written(sql: &str) -> usize {
    let upper = sql.to_ascii_uppercase();
    let first = upper.split_whitespace().next().unwrap_or("");
    match first {
        "INSERT" | "UPDATE" | "DELETE" => 1,
        "WITH" => [
            "UPDATE A2A_TASKS ",
            "INSERT INTO A2A_TASK_EVENTS ",
            "INSERT INTO A2A_TASKS ",
            "INSERT INTO A2A_EXECUTIONS ",
        ]
        .iter()
        .filter(|write| upper.contains(*write))
        .count(),
        _ => 0,
    }
}

fn notifies(sql: &str) -> bool {
    sql.to_ascii_lowercase().contains("pg_notify")
}

/// The cost of `recorded`, in order: a write inside a store's transaction commits with it.
pub fn cost_of(recorded: &[Recorded]) -> Cost {
    let mut tally = Tally::default();
    for entry in recorded {
        match entry {
            Recorded::Begin => {
                tally.cost.round_trips += 1.0;
                tally.begin();
            }
            Recorded::Commit => {
                tally.cost.round_trips += 1.0;
                tally.commit();
            }
            Recorded::Direct {
                summary,
                rows_affected,
            } => {
                // Run where it was asked for: a statement, no round trip; its transaction's
                // `BEGIN IMMEDIATE` and `COMMIT` are statements of its own too.
                let upper = summary.to_ascii_uppercase();
                if upper.starts_with("BEGIN") {
                    tally.begin();
                } else if upper.starts_with("COMMIT") {
                    tally.commit();
                } else if upper.starts_with("ROLLBACK") {
                    tally.roll_back();
                } else {
                    tally.statement(summary, *rows_affected);
                }
            }
            Recorded::Statement {
                summary,
                rows_affected,
            } => {
                let upper = summary.to_ascii_uppercase();
                // sqlx's own transaction statements on PostgreSQL: the store's events count them.
                if ["BEGIN", "COMMIT", "ROLLBACK"]
                    .iter()
                    .any(|word| upper.starts_with(word))
                {
                    continue;
                }
                tally.cost.round_trips += 1.0;
                tally.statement(summary, *rows_affected);
            }
        }
    }
    tally.cost
}

/// The cost counted so far, and the transaction open, if any.
#[derive(Default)]
struct Tally {
    cost: Cost,
    open: usize,
    wrote_in_transaction: bool,
}

impl Tally {
    fn begin(&mut self) {
        self.open += 1;
    }

    fn commit(&mut self) {
        self.open = self.open.saturating_sub(1);
        if self.wrote_in_transaction {
            self.cost.commits += 1.0;
        }
        self.wrote_in_transaction = false;
    }

    fn roll_back(&mut self) {
        self.open = self.open.saturating_sub(1);
        self.wrote_in_transaction = false;
    }

    /// A statement that changed `rows_affected` rows: a read, or a write, which commits with the
    /// transaction open or, outside one, by itself when it changed a row.
    fn statement(&mut self, summary: &str, rows_affected: u64) {
        self.cost.statements += 1.0;
        let tables = tables_written(summary);
        if tables > 0 || notifies(summary) {
            // A notification is sent, not stored: no row.
            let rows = (tables as u64) * rows_affected;
            self.cost.rows_written += rows as f64;
            if self.open > 0 {
                self.wrote_in_transaction = true;
            } else if rows > 0 {
                self.cost.commits += 1.0;
            }
        } else {
            self.cost.reads += 1.0;
        }
    }
}

/// The global recorder.
pub struct Recorder {
    recorded: Mutex<Vec<Recorded>>,
    exclusive: tokio::sync::Mutex<()>,
}

struct Recording;

#[derive(Default)]
struct Fields {
    summary: Option<String>,
    statement: Option<String>,
    rows_affected: u64,
    message: Option<String>,
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "summary" => self.summary = Some(value.to_owned()),
            "db.statement" => self.statement = Some(value.to_owned()),
            _ => {}
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "rows_affected" {
            self.rows_affected = value;
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            self.message = Some(format!("{value:?}"));
        }
    }
}

/// Whether `text` is sqlx opening a SQLite connection (its options, as one text of `PRAGMA`s): the
/// pool opens a reader when it needs one more, at a moment that depends on the machine's load, so
/// it is no cost of the operation that happens to be running then. The stores send no `PRAGMA`
/// of their own.
fn sets_up_a_connection(text: &str) -> bool {
    let mut parts = text.split(';').map(str::trim).filter(|p| !p.is_empty());
    parts.clone().next().is_some()
        && parts.all(|part| part.to_ascii_uppercase().starts_with("PRAGMA"))
}

impl<S: Subscriber> Layer<S> for Recording {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let target = event.metadata().target();
        let is_statement = target == "sqlx::query";
        let is_direct = target == a2a_server_sql::STATEMENT_TARGET;
        if !is_statement && !is_direct && target != a2a_server_sql::TRANSACTION_TARGET {
            return;
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        let entry = if is_direct {
            Recorded::Direct {
                summary: fields.summary.unwrap_or_default().trim().to_owned(),
                rows_affected: fields.rows_affected,
            }
        } else if is_statement {
            // The summary is the statement's first words; its whole text follows when longer.
            let text = fields
                .statement
                .filter(|s| !s.trim().is_empty())
                .or(fields.summary)
                .unwrap_or_default();
            if sets_up_a_connection(&text) {
                return;
            }
            Recorded::Statement {
                summary: text.trim().to_owned(),
                rows_affected: fields.rows_affected,
            }
        } else if fields.message.as_deref() == Some("commit") {
            Recorded::Commit
        } else {
            Recorded::Begin
        };
        recorder().recorded.lock().unwrap().push(entry);
    }
}

/// The recorder, installing the subscriber on first use.
pub fn recorder() -> &'static Recorder {
    static RECORDER: OnceLock<Recorder> = OnceLock::new();
    static INSTALLED: OnceLock<()> = OnceLock::new();
    let recorder = RECORDER.get_or_init(|| Recorder {
        recorded: Mutex::new(Vec::new()),
        exclusive: tokio::sync::Mutex::new(()),
    });
    INSTALLED.get_or_init(|| {
        tracing::subscriber::set_global_default(Registry::default().with(Recording))
            .expect("no other global subscriber in the cost tests");
    });
    recorder
}

impl Recorder {
    /// Held by a test while it counts: the recording is the whole process's.
    pub async fn exclusive(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.exclusive.lock().await
    }

    /// Waits until nothing was recorded for `quiet`, or `limit` has passed; keeps what was.
    pub async fn wait_quiet(&self, quiet: Duration, limit: Duration) {
        let deadline = Instant::now() + limit;
        let mut seen = self.recorded.lock().unwrap().len();
        let mut since = Instant::now();
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let now = self.recorded.lock().unwrap().len();
            if now != seen {
                seen = now;
                since = Instant::now();
            } else if since.elapsed() >= quiet {
                break;
            }
        }
    }

    /// Waits until the database has been asked nothing for `quiet` (at most `limit`), then
    /// takes what was recorded since the last take.
    pub async fn take_when_quiet(&self, quiet: Duration, limit: Duration) -> Vec<Recorded> {
        self.wait_quiet(quiet, limit).await;
        std::mem::take(&mut *self.recorded.lock().unwrap())
    }
}
