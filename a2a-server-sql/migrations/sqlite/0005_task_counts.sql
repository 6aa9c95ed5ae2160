-- Tasks per owner (a2a-spec-server-sql), kept by triggers as tasks are inserted and deleted, so
-- ListTasks without a filter reads its total from one row instead of counting the owner's rows (a
-- count that grows with the tasks held). SQLite writes one transaction at a time, so one row per
-- owner never makes writers wait.
CREATE TABLE a2a_task_counts (
    owner_principal TEXT NOT NULL,
    owner_tenant TEXT NOT NULL,
    tasks INTEGER NOT NULL,
    PRIMARY KEY (owner_principal, owner_tenant)
) WITHOUT ROWID;

INSERT INTO a2a_task_counts (owner_principal, owner_tenant, tasks)
SELECT owner_principal, owner_tenant, COUNT(*) FROM a2a_tasks
GROUP BY owner_principal, owner_tenant;

CREATE TRIGGER a2a_tasks_counted_in AFTER INSERT ON a2a_tasks
BEGIN
    INSERT INTO a2a_task_counts (owner_principal, owner_tenant, tasks)
    VALUES (NEW.owner_principal, NEW.owner_tenant, 1)
    ON CONFLICT (owner_principal, owner_tenant) DO UPDATE SET tasks = tasks + 1;
END;

CREATE TRIGGER a2a_tasks_counted_out AFTER DELETE ON a2a_tasks
BEGIN
    UPDATE a2a_task_counts SET tasks = tasks - 1
    WHERE owner_principal = OLD.owner_principal AND owner_tenant = OLD.owner_tenant;
END;
