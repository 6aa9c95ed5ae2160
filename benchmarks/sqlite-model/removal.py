"""What removing an expired task costs SQLite itself, apart from the agent around it.

A model of the SQLite store's hot writes and paced expiry (`a2a-server-sql/src/sqlite/writer.rs`,
`sqlite/expiry.rs`): tasks that end at once are written in groups of 32, one transaction per group,
and each group's transaction then removes the oldest tasks beyond the ones kept, as the writer
does. It prints the microseconds per task in ten windows: the first ones while the store fills
(writing only), the later ones once it removes as fast as it writes. The difference is what a
removal costs.

    python3 removal.py MODE DATABASE [TASKS] [KEPT]

MODE:
  before  the schema up to migration 0007: a row trigger lowers the owners' counts, and the
          events' foreign key cascades (the slice's statements as the writer sent them then);
  now     every migration: the slice lowers the counts itself, one update per owner;
  slices  what PostgreSQL does, modelled: tasks in tables a quarter of the kept span wide, each
          dropped whole once all its tasks are past, its tasks counted out per owner first.

DATABASE is a file path, removed first (put it on tmpfs to leave the disk out). Needs nothing but
Python's `sqlite3`; the migrations are read from `a2a-server-sql/migrations/sqlite`.
"""

import os
import sqlite3
import sys
import time
import uuid

MIGRATIONS = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "a2a-server-sql", "migrations", "sqlite"
)
GROUP = 32
TASK_ROWS = ["a2a_push_configs", "a2a_push_outbox", "a2a_executions", "a2a_task_events"]
EXPIRING = (
    "SELECT id FROM a2a_tasks WHERE terminal = TRUE AND updated_micros < ?1 "
    "ORDER BY updated_micros LIMIT ?2"
)
BODY = (
    '{"id":"%s","contextId":"ctx","status":{"state":"TASK_STATE_COMPLETED",'
    '"timestamp":"2026-12-01T12:00:00Z"},"history":[{"messageId":"m","role":"ROLE_USER",'
    '"parts":[{"text":"hello, agent"}]}],"artifacts":[{"artifactId":"a","parts":[{"text":"'
    + "x" * 200
    + '"}]}]}'
)
COLUMNS = (
    "id, owner_principal, owner_tenant, context_id, state, terminal, status_micros, "
    "timestamped, version, events_pruned_through, updated_micros, task"
)


def open_database(path, up_to):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON",
                   "wal_autocheckpoint = 10000"):
        db.execute("PRAGMA " + pragma)
    for name in sorted(os.listdir(MIGRATIONS)):
        if up_to is None or int(name[:4]) <= up_to:
            with open(os.path.join(MIGRATIONS, name)) as migration:
                db.executescript(migration.read())
    return db


def slice_statements(mode):
    """The writer's slice: what belongs to the tasks, (the counts,) then the tasks."""
    statements = [
        f"WITH expiring AS ({EXPIRING}) DELETE FROM {table} "
        "WHERE task_id IN (SELECT id FROM expiring)"
        for table in TASK_ROWS
    ]
    if mode == "now":
        statements.append(
            f"WITH expiring AS ({EXPIRING}) UPDATE a2a_task_counts SET tasks = tasks - gone.n "
            "FROM (SELECT owner_principal, owner_tenant, COUNT(*) AS n FROM a2a_tasks "
            "WHERE id IN (SELECT id FROM expiring) GROUP BY owner_principal, owner_tenant) AS gone "
            "WHERE a2a_task_counts.owner_principal = gone.owner_principal "
            "AND a2a_task_counts.owner_tenant = gone.owner_tenant"
        )
    statements.append(
        f"WITH expiring AS ({EXPIRING}) DELETE FROM a2a_tasks WHERE id IN (SELECT id FROM expiring)"
    )
    return statements


class Slices:
    """Tasks in tables by span of creation, the oldest dropped whole."""

    def __init__(self, db, kept):
        self.db, self.width, self.live = db, max(kept // 4, 1), set()
        db.execute("DROP TRIGGER IF EXISTS a2a_tasks_counted_in")

    def table(self, clock):
        span = clock // self.width
        name = f"a2a_tasks_{span}"
        if span not in self.live:
            # Statement by statement: `executescript` would commit the group's transaction.
            for statement in (
                f"CREATE TABLE {name} AS SELECT * FROM a2a_tasks WHERE 0",
                f"CREATE UNIQUE INDEX {name}_id ON {name} (id)",
                f"CREATE INDEX {name}_listing ON {name} "
                "(owner_principal, owner_tenant, status_micros DESC, seq DESC)",
                f"CREATE INDEX {name}_terminal ON {name} (terminal, updated_micros)",
            ):
                self.db.execute(statement)
            self.live.add(span)
        return name

    def write(self, rows, clock):
        name = self.table(clock)
        self.db.executemany(f"INSERT INTO {name} ({COLUMNS}) VALUES ({','.join('?' * 12)})", rows)
        self.db.execute(
            "INSERT INTO a2a_task_counts VALUES ('alice', '', ?) "
            "ON CONFLICT DO UPDATE SET tasks = tasks + excluded.tasks",
            (len(rows),),
        )

    def remove(self, cutoff):
        for span in sorted(self.live):
            if (span + 1) * self.width > cutoff:
                break
            name = f"a2a_tasks_{span}"
            counts = self.db.execute(
                f"SELECT owner_principal, owner_tenant, COUNT(*) FROM {name} GROUP BY 1, 2"
            ).fetchall()
            for principal, tenant, n in counts:
                self.db.execute(
                    "UPDATE a2a_task_counts SET tasks = tasks - ? "
                    "WHERE owner_principal = ? AND owner_tenant = ?",
                    (n, principal, tenant),
                )
            self.db.execute(f"DROP TABLE {name}")
            self.live.discard(span)

    def held(self):
        return self.db.execute("SELECT tasks FROM a2a_task_counts").fetchone()[0]


class Rows:
    """Tasks in `a2a_tasks`, the oldest removed by the writer's slice."""

    def __init__(self, db, mode):
        self.db, self.statements = db, slice_statements(mode)

    def write(self, rows, clock):
        self.db.executemany(
            f"INSERT INTO a2a_tasks ({COLUMNS}) VALUES ({','.join('?' * 12)}) "
            "ON CONFLICT (id) DO NOTHING",
            rows,
        )

    def remove(self, cutoff):
        for statement in self.statements:
            self.db.execute(statement, (cutoff, 2 * GROUP))

    def held(self):
        return self.db.execute("SELECT COUNT(*) FROM a2a_tasks").fetchone()[0]


def main():
    mode, path = sys.argv[1], sys.argv[2]
    total = int(sys.argv[3]) if len(sys.argv) > 3 else 640_000
    kept = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
    if mode not in ("before", "now", "slices"):
        sys.exit(f"unknown mode {mode!r}: before, now or slices")
    db = open_database(path, 7 if mode == "before" else None)
    store = Slices(db, kept) if mode == "slices" else Rows(db, mode)
    window = total // 10 // GROUP * GROUP
    clock = written = 0
    started = time.perf_counter()
    while written < 10 * window:
        rows = []
        for _ in range(GROUP):
            clock += 1
            task_id = "%012x-%s" % (clock, uuid.uuid4().hex[:20])
            rows.append((task_id, "alice", "", "ctx", 3, 1, clock, 1, 3, 3, clock, BODY % task_id))
        db.execute("BEGIN IMMEDIATE")
        store.write(rows, clock)
        store.remove(clock - kept)
        db.execute("COMMIT")
        written += GROUP
        if written % window == 0:
            now = time.perf_counter()
            per_task = (now - started) / window * 1e6
            print(f"{mode} written={written} held={store.held()} us_per_task={per_task:.1f}",
                  flush=True)
            started = now


if __name__ == "__main__":
    main()
