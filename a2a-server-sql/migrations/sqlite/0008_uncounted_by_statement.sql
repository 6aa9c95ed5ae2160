-- Deleting a task costs SQLite less (a2a-spec-server-sql): retention removes tasks in batches, and
-- per task the row trigger and the foreign key's cascade each ran a small program of their own,
-- together about half of what removing the task's row and index entries costs.
--
-- The owners' counts: the statements that delete tasks now take them out of their owners' counts
-- themselves, one update per owner per batch, before they delete. Creations are still counted by
-- `a2a_tasks_counted_in`.
DROP TRIGGER a2a_tasks_counted_out;

-- The events' reference to their task is dropped: a task's events are written in the task's own
-- transaction, after its row is checked, and every statement that removes tasks removes their
-- events by id first, so neither the check nor the cascade did anything the store needs. SQLite
-- cannot drop a constraint in place: the table is made again, with the same rows and key.
CREATE TABLE a2a_task_events_unreferenced (
    task_id TEXT NOT NULL,
    -- The task version this event produced: the SSE event id.
    version INTEGER NOT NULL,
    created_micros INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (task_id, version)
) WITHOUT ROWID;
INSERT INTO a2a_task_events_unreferenced (task_id, version, created_micros, event)
SELECT task_id, version, created_micros, event FROM a2a_task_events;
DROP TABLE a2a_task_events;
ALTER TABLE a2a_task_events_unreferenced RENAME TO a2a_task_events;
