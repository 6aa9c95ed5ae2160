-- The task counters (a2a-spec-server-sql, 0005) kept once per statement instead of once per row:
-- a statement that inserts or deletes many tasks (a group of new tasks, a pruning pass) changes
-- each owner's count by one upsert, not one per task. The shard is still chosen by creation
-- order, here the statement's first task's, so statements running side by side still land on
-- different rows. The rows are upserted in owner order, so two statements touching the same
-- owners take their locks in the same order and never deadlock.
DROP TRIGGER a2a_tasks_counted ON a2a_tasks;
DROP FUNCTION a2a_task_counted();

CREATE FUNCTION a2a_tasks_created_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a2a_task_counts (owner_principal, owner_tenant, shard, tasks)
    SELECT owner_principal, owner_tenant, (MIN(seq) % 32)::SMALLINT, COUNT(*)
    FROM created GROUP BY owner_principal, owner_tenant
    ORDER BY owner_principal, owner_tenant
    ON CONFLICT (owner_principal, owner_tenant, shard)
    DO UPDATE SET tasks = a2a_task_counts.tasks + EXCLUDED.tasks;
    RETURN NULL;
END
$$;

CREATE FUNCTION a2a_tasks_removed_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a2a_task_counts (owner_principal, owner_tenant, shard, tasks)
    SELECT owner_principal, owner_tenant, (MIN(seq) % 32)::SMALLINT, -COUNT(*)
    FROM removed GROUP BY owner_principal, owner_tenant
    ORDER BY owner_principal, owner_tenant
    ON CONFLICT (owner_principal, owner_tenant, shard)
    DO UPDATE SET tasks = a2a_task_counts.tasks + EXCLUDED.tasks;
    RETURN NULL;
END
$$;

CREATE TRIGGER a2a_tasks_counted_in AFTER INSERT ON a2a_tasks
REFERENCING NEW TABLE AS created FOR EACH STATEMENT EXECUTE FUNCTION a2a_tasks_created_counted();

CREATE TRIGGER a2a_tasks_counted_out AFTER DELETE ON a2a_tasks
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION a2a_tasks_removed_counted();
