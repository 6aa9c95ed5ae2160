-- Executions in progress (a2a-spec-server-sql), so one whose replica stopped is resumed: one row
-- per task whose executor runs, leased to the replica running it, which renews the lease while it
-- runs and deletes the row when the executor ends. A row whose lease ran out is claimed by a
-- replica, which runs the executor again (`attempts` counts the runs).
CREATE TABLE a2a_executions (
    task_id TEXT PRIMARY KEY,
    owner_principal TEXT NOT NULL,
    owner_tenant TEXT NOT NULL,
    -- The SendMessageRequest (ProtoJSON): the message, its ids filled in, and its configuration.
    request TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    lease_token TEXT NOT NULL,
    lease_until_micros BIGINT NOT NULL
);
CREATE INDEX a2a_executions_lease ON a2a_executions (lease_until_micros);
