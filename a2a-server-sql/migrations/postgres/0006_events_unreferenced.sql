-- The events table no longer declares its rows' task as a foreign key (a2a-spec-server-sql).
-- PostgreSQL checked that key once per event row, by a trigger that locks the task's row again,
-- and those checks cost a streamed burst about as much as writing its events. They guarded
-- nothing the store can do: an event is only ever inserted by the statement that has just
-- updated its task, within that transaction, and retention deletes a task's events before the
-- task. SQLite keeps the key; its check is one lookup in the task table's key.
ALTER TABLE a2a_task_events DROP CONSTRAINT IF EXISTS a2a_task_events_task_id_fkey;
