-- The tasks that keep events, by how many (a2a-spec-server-sql), so that a pruning pass finds
-- the tasks over its cap of events per task through this index, instead of reading every task
-- while it holds the database's one writer. A task written with no event kept (one the agent
-- ended at once) is not in it, and costs it nothing.
CREATE INDEX a2a_tasks_log_length ON a2a_tasks (version - events_pruned_through)
WHERE version > events_pruned_through;
