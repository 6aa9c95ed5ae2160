-- A task's log may now keep a burst of events in one row (a2a-spec-server-sql): the events one
-- update logs together are written as a JSON array of their texts, under the first one's
-- version, the rest under the versions after it. Rows already written stay as they are, and are
-- read as before. Nothing in the schema changes; this migration marks the format, so that a
-- release that reads one event per row refuses to open a database written in it.
COMMENT ON COLUMN a2a_task_events.event IS
    'One logged StreamResponse (ProtoJSON), or a JSON array of the events of a burst logged under consecutive versions from this row''s version';
