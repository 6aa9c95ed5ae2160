-- The durable push outbox (a2a-spec-server-sql): one row per webhook delivery to make, written in
-- the transaction that logs the event, one for each push config the task has then. A replica
-- claims due rows with a lease, deletes a row once delivered, and keeps a row it gives up on with
-- the reason (`gave_up_micros` set). Rows go with their task when retention removes it.
CREATE TABLE a2a_push_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id TEXT NOT NULL,
    config_id TEXT NOT NULL,
    -- The task version the event produced (its SSE id).
    event_version INTEGER NOT NULL,
    -- Copies of the config and the event (ProtoJSON) as they were when the event was logged.
    config TEXT NOT NULL,
    event TEXT NOT NULL,
    -- Attempts claimed so far.
    attempts INTEGER NOT NULL DEFAULT 0,
    -- Not claimed before this time (microseconds since the epoch): the backoff of a retry.
    due_micros INTEGER NOT NULL,
    -- Who claimed it last, and until when no one else may.
    lease_token TEXT,
    lease_until_micros INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    -- Set when the delivery was given up on (NULL while it is pending).
    gave_up_micros INTEGER
);
CREATE INDEX a2a_push_outbox_due ON a2a_push_outbox (due_micros) WHERE gave_up_micros IS NULL;
CREATE INDEX a2a_push_outbox_task ON a2a_push_outbox (task_id);
