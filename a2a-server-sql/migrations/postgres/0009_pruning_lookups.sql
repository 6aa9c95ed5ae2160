-- Two lookups of the pruning pass through indexes (a2a-spec-server-sql), instead of reading the
-- whole table while the pass runs.
--
-- The push configs of the tasks a batch expires, found by task id alone: the pass knows the
-- tasks, not their owners, and the primary key begins with the owner. Without it each batch read
-- every push config.
CREATE INDEX a2a_push_configs_task ON a2a_push_configs (task_id);

-- The deliveries given up on before a time: only those, so pending deliveries cost it nothing.
CREATE INDEX a2a_push_outbox_given_up ON a2a_push_outbox (gave_up_micros)
WHERE gave_up_micros IS NOT NULL;
