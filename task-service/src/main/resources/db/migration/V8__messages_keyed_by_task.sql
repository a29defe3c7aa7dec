-- Messages are only ever read by task. With a btree on id alone, a cached generic plan could page a
-- conversation by walking the whole table backwards in id order, filtering on task_id: every page of
-- an early task then paid for every message written since, by anyone. The primary key becomes
-- (task_id, id), the only order a plan can walk; lookups by id alone (marking mid-run messages
-- delivered) use a hash index, which has no order to walk. ids stay unique: they come from the
-- identity sequence only ("generated always").
alter table messages drop constraint messages_pkey;
alter table messages add primary key (task_id, id);
drop index messages_task;
create index messages_id on messages using hash (id);
