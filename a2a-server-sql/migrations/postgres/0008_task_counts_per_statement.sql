-- The task counters (a2a-spec-server-sql, 0005) kept once per statement instead of once per row:
-- a statement that inserts or deletes many tasks (a group of new tasks, a pruning pass) changes
-- each owner's count by one upsert, not one per task. The shard is still chosen by creation
-- order, here the statement's first task's, so statements running side by side still land on
-- different rows. The rows are upserted in owner order, so two statements touching the same
-- owners take their locks in the same order and never deadlock. One function serves both
-- triggers: each names its rows `changed` and gives the sign of the change as its argument.
DROP TRIGGER a2a_tasks_counted ON a2a_tasks;
DROP FUNCTION a2a_task_counted();

CREATE FUNCTION a2a_tasks_counted_per_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a2a_task_counts (owner_principal, owner_tenant, shard, tasks)
    SELECT owner_principal, owner_tenant, (MIN(seq) % 32)::SMALLINT,
        TG_ARGV[0]::BIGINT * COUNT(*)
    FROM changed GROUP BY owner_principal, owner_tenant
    ORDER BY owner_principal, owner_tenant
    ON CONFLICT (owner_principal, owner_tenant, shard)
    DO UPDATE SET tasks = a2a_task_counts.tasks + EXCLUDED.tasks;
    RETURN NULL;
END
$$;

CREATE TRIGGER a2a_tasks_counted_in AFTER INSERT ON a2a_tasks
REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION a2a_tasks_counted_per_statement('1');

CREATE TRIGGER a2a_tasks_counted_out AFTER DELETE ON a2a_tasks
REFERENCING OLD TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION a2a_tasks_counted_per_statement('-1');
