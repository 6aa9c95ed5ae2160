-- A2A tasks, their event logs and their push-notification configs (a2a-spec-server-sql).
-- Tasks and events are kept as their ProtoJSON; the other columns are what ListTasks filters and
-- sorts on, what optimistic concurrency compares, and what retention prunes by.
CREATE TABLE a2a_tasks (
    id TEXT PRIMARY KEY,
    -- Creation order: breaks ties between equal status times in ListTasks and its page tokens.
    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    owner_principal TEXT NOT NULL,
    owner_tenant TEXT NOT NULL,
    context_id TEXT NOT NULL,
    -- The TaskState's protobuf number.
    state INTEGER NOT NULL,
    terminal BOOLEAN NOT NULL,
    -- status.timestamp in microseconds since the epoch (0 when absent, then `timestamped` is false).
    status_micros BIGINT NOT NULL,
    timestamped BOOLEAN NOT NULL,
    -- 1 at creation, one more on every update; an update names the version it read.
    version BIGINT NOT NULL,
    -- The highest event version retention removed from the log (0: none).
    events_pruned_through BIGINT NOT NULL DEFAULT 0,
    -- When the row was last written, microseconds since the epoch (retention's clock).
    updated_micros BIGINT NOT NULL,
    task TEXT NOT NULL
);
CREATE INDEX a2a_tasks_listing ON a2a_tasks (owner_principal, owner_tenant, status_micros DESC, seq DESC);
CREATE INDEX a2a_tasks_terminal ON a2a_tasks (terminal, updated_micros);

CREATE TABLE a2a_task_events (
    task_id TEXT NOT NULL REFERENCES a2a_tasks (id) ON DELETE CASCADE,
    -- The task version this event produced: the SSE event id.
    version BIGINT NOT NULL,
    created_micros BIGINT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (task_id, version)
);

CREATE TABLE a2a_push_configs (
    owner_principal TEXT NOT NULL,
    owner_tenant TEXT NOT NULL,
    task_id TEXT NOT NULL,
    config_id TEXT NOT NULL,
    -- First-stored order: ListTaskPushNotificationConfigs answers in it.
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    config TEXT NOT NULL,
    PRIMARY KEY (owner_principal, owner_tenant, task_id, config_id)
);
