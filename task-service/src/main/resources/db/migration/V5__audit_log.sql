-- The security audit log: append-only. task_id has no foreign key so entries outlive their task.
create table audit_log (
  id         bigint generated always as identity primary key,
  at         timestamptz not null default now(),
  actor_id   text not null,
  actor_role text not null,
  action     text not null check (length(action) between 1 and 100),
  task_id    uuid,
  detail     text check (length(detail) <= 20000)
);
create index audit_log_task on audit_log (task_id, id desc) where task_id is not null;

-- The service role owns the table, so privileges alone cannot stop it: a trigger refuses every
-- update, delete and truncate, whoever asks.
create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
end;
$$;
create trigger audit_log_no_update_delete before update or delete on audit_log
  for each row execute function audit_log_append_only();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_append_only();
