-- Tasks per owner (a2a-spec-server-sql), kept by a trigger as tasks are inserted and deleted, so
-- ListTasks without a filter gives its total by adding a few counters instead of counting the
-- owner's rows (a count that grows with the tasks held). Each owner's count is spread over 32
-- shards, chosen by the task's creation order: creations running side by side land on different
-- rows and do not wait for each other's commits. A shard may go below zero (a task counted in one
-- shard, as the tasks held before this migration are in shard 0, leaves from another); the sum is
-- what counts.
CREATE TABLE a2a_task_counts (
    owner_principal TEXT NOT NULL,
    owner_tenant TEXT NOT NULL,
    shard SMALLINT NOT NULL,
    tasks BIGINT NOT NULL,
    PRIMARY KEY (owner_principal, owner_tenant, shard)
);

INSERT INTO a2a_task_counts (owner_principal, owner_tenant, shard, tasks)
SELECT owner_principal, owner_tenant, 0, COUNT(*) FROM a2a_tasks
GROUP BY owner_principal, owner_tenant;

CREATE FUNCTION a2a_task_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed a2a_tasks;
    delta BIGINT;
BEGIN
    IF TG_OP = 'INSERT' THEN
        changed := NEW;
        delta := 1;
    ELSE
        changed := OLD;
        delta := -1;
    END IF;
    INSERT INTO a2a_task_counts (owner_principal, owner_tenant, shard, tasks)
    VALUES (changed.owner_principal, changed.owner_tenant, (changed.seq % 32)::SMALLINT, delta)
    ON CONFLICT (owner_principal, owner_tenant, shard)
    DO UPDATE SET tasks = a2a_task_counts.tasks + EXCLUDED.tasks;
    RETURN NULL;
END
$$;

CREATE TRIGGER a2a_tasks_counted AFTER INSERT OR DELETE ON a2a_tasks
FOR EACH ROW EXECUTE FUNCTION a2a_task_counted();
