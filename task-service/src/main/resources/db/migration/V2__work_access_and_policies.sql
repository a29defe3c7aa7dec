-- Work access: one settings row. 'admins' (the default) or 'users' (every active account).
create table work_settings (
  id          smallint primary key default 1 check (id = 1),
  access_mode text not null default 'admins' check (access_mode in ('admins', 'users')),
  updated_at  timestamptz not null default now(),
  updated_by  text
);
insert into work_settings (id) values (1);

-- Named runtime policies. Null resource fields inherit the deployment's globals; the hardening
-- profile is deliberately not a column.
create table runtime_policies (
  id               uuid primary key,
  name             text not null unique check (length(name) between 1 and 100),
  image            text check (length(image) <= 500),
  memory_limit     text check (length(memory_limit) <= 20),
  cpu_limit        text check (length(cpu_limit) <= 20),
  pids_limit       integer check (pids_limit > 0),
  workspace_size   text check (length(workspace_size) <= 20),
  idle_timeout_ms  bigint check (idle_timeout_ms >= 0),
  network_enabled  boolean not null default true,
  computer_enabled boolean not null default false,
  takeover_allowed boolean not null default true,
  require_approval boolean not null default false,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);
