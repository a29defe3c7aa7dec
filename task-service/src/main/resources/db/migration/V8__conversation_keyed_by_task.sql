-- A conversation's messages and tool activity are only ever paged by task. With a btree on id
-- alone, a cached generic plan could page a task by walking the whole table backwards in id order,
-- filtering on task_id: every page of an early task then paid for every row written since, by
-- anyone. The primary keys become (task_id, id), the only order a plan can walk; lookups by id
-- alone (Hibernate's updates of a row it loaded) use a hash index, which has no order to walk. ids
-- stay unique: they come from the identity sequences only ("generated always").
alter table messages drop constraint messages_pkey;
alter table messages add primary key (task_id, id);
drop index messages_task;
create index messages_id on messages using hash (id);

alter table tool_activity drop constraint tool_activity_pkey;
alter table tool_activity add primary key (task_id, id);
drop index tool_activity_task;
create index tool_activity_id on tool_activity using hash (id);
