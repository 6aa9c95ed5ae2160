-- Tasks and their events kept in slices of time (a2a-spec-server-sql), so that retention drops a
-- slice whose tasks have all expired as a whole table, instead of deleting its rows one by one
-- (deletes that cost a busy store a quarter of its throughput, and leave dead rows for VACUUM).
--
-- Both tables are partitioned by range of task id. The server's task ids begin with the
-- millisecond they were made (`task-` and a UUID of version 7 in hex), so a range of ids is a
-- range of creation times; the store makes the slices ahead of time as it prunes (see
-- `postgres_slices.rs`). Ids compare byte by byte (collation "C") wherever they are stored, so
-- that a range means the same to every table and every index on them.
--
-- Whatever no slice covers goes to each table's default partition: the rows stored before this
-- migration (which become that partition), ids the server did not make, and tasks made while no
-- slice was ready. Retention removes those one by one, as before.

ALTER TABLE a2a_tasks RENAME TO a2a_tasks_unsliced;
ALTER INDEX a2a_tasks_pkey RENAME TO a2a_tasks_unsliced_pkey;
ALTER INDEX a2a_tasks_listing RENAME TO a2a_tasks_unsliced_listing;
ALTER INDEX a2a_tasks_terminal RENAME TO a2a_tasks_unsliced_terminal;
ALTER INDEX a2a_tasks_log_length RENAME TO a2a_tasks_unsliced_log_length;
DROP TRIGGER a2a_tasks_counted_in ON a2a_tasks_unsliced;
DROP TRIGGER a2a_tasks_counted_out ON a2a_tasks_unsliced;
ALTER TABLE a2a_tasks_unsliced ALTER COLUMN id TYPE TEXT COLLATE "C";

ALTER TABLE a2a_task_events RENAME TO a2a_task_events_unsliced;
ALTER INDEX a2a_task_events_pkey RENAME TO a2a_task_events_unsliced_pkey;
ALTER TABLE a2a_task_events_unsliced ALTER COLUMN task_id TYPE TEXT COLLATE "C";

ALTER TABLE a2a_push_configs ALTER COLUMN task_id TYPE TEXT COLLATE "C";
ALTER TABLE a2a_push_outbox ALTER COLUMN task_id TYPE TEXT COLLATE "C";
ALTER TABLE a2a_executions ALTER COLUMN task_id TYPE TEXT COLLATE "C";

-- The same columns as before. `seq` is no longer declared unique: a partitioned table's unique
-- keys must hold its partition key, and the identity alone already gives each task its own.
CREATE TABLE a2a_tasks (
    id TEXT COLLATE "C" NOT NULL,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    owner_principal TEXT NOT NULL,
    owner_tenant TEXT NOT NULL,
    context_id TEXT NOT NULL,
    state INTEGER NOT NULL,
    terminal BOOLEAN NOT NULL,
    status_micros BIGINT NOT NULL,
    timestamped BOOLEAN NOT NULL,
    version BIGINT NOT NULL,
    events_pruned_through BIGINT NOT NULL DEFAULT 0,
    updated_micros BIGINT NOT NULL,
    task TEXT NOT NULL,
    PRIMARY KEY (id)
) PARTITION BY RANGE (id);
CREATE INDEX a2a_tasks_listing ON a2a_tasks (owner_principal, owner_tenant, status_micros DESC, seq DESC);
CREATE INDEX a2a_tasks_terminal ON a2a_tasks (terminal, updated_micros);
CREATE INDEX a2a_tasks_log_length ON a2a_tasks ((version - events_pruned_through))
WHERE version > events_pruned_through;

-- New tasks take creation orders after every one stored so far.
SELECT setval(
    pg_get_serial_sequence('a2a_tasks', 'seq'),
    COALESCE((SELECT MAX(seq) FROM a2a_tasks_unsliced), 0) + 1,
    false
);

ALTER TABLE a2a_tasks ATTACH PARTITION a2a_tasks_unsliced DEFAULT;

CREATE TRIGGER a2a_tasks_counted_in AFTER INSERT ON a2a_tasks
REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION a2a_tasks_counted_per_statement('1');

CREATE TRIGGER a2a_tasks_counted_out AFTER DELETE ON a2a_tasks
REFERENCING OLD TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION a2a_tasks_counted_per_statement('-1');

CREATE TABLE a2a_task_events (
    task_id TEXT COLLATE "C" NOT NULL,
    version BIGINT NOT NULL,
    created_micros BIGINT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (task_id, version)
) PARTITION BY RANGE (task_id);

ALTER TABLE a2a_task_events ATTACH PARTITION a2a_task_events_unsliced DEFAULT;
