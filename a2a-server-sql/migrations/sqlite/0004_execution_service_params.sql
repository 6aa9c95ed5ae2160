-- The service parameters of the request an execution runs (a2a-spec-server-sql), so a resumed run
-- sees what the first one saw: the `A2A-Version` the request was served under ('' when absent) and
-- its `A2A-Extensions` (the URIs joined by commas, '' for none), each written as the header's value.
ALTER TABLE a2a_executions ADD COLUMN a2a_version TEXT NOT NULL DEFAULT '';
ALTER TABLE a2a_executions ADD COLUMN a2a_extensions TEXT NOT NULL DEFAULT '';
