-- Tasks: owner, explicit provider route, runtime names chosen by the server, state.
-- Accounts cannot be deleted while they own tasks: their sandboxes must be removed first.
create table tasks (
  id                 uuid primary key,
  owner_id           uuid not null references accounts (id) on delete restrict,
  title              text not null check (length(title) between 1 and 200),
  provider_kind      text not null check (provider_kind in ('ollama', 'ollama_cloud', 'openai', 'anthropic', 'gemini')),
  provider_id        text not null check (length(provider_id) between 1 and 200),
  model              text not null check (length(model) between 1 and 500 and octet_length(model) <= 500),
  policy_id          uuid references runtime_policies (id) on delete set null,
  network_enabled    boolean not null default true,
  sandbox_name       text not null unique,
  volume_name        text not null unique,
  decommissioning    boolean not null default false,
  decommission_error text,
  seen_at            timestamptz,
  last_finished_at   timestamptz,
  approvals_enabled  boolean not null default false,
  state              text not null default 'idle'
                     check (state in ('idle', 'preparing', 'running', 'completed', 'needs_input', 'cancelled', 'failed')),
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now()
);
create index tasks_owner on tasks (owner_id, updated_at desc);
create index tasks_policy on tasks (policy_id) where policy_id is not null;

-- Runs keep a snapshot of the route they started with; usage counters and why they ended.
create table runs (
  id            uuid primary key,
  task_id       uuid not null references tasks (id) on delete cascade,
  state         text not null check (state in ('preparing', 'running', 'completed', 'needs_input', 'cancelled', 'failed')),
  provider_kind text not null,
  provider_id   text not null,
  model         text not null,
  reason        text check (length(reason) <= 2000),
  input_tokens  bigint not null default 0,
  output_tokens bigint not null default 0,
  rounds        integer not null default 0,
  tool_calls    integer not null default 0,
  created_at    timestamptz not null default now(),
  started_at    timestamptz,
  finished_at   timestamptz
);
-- One active run per task, enforced by the database whatever the code does.
create unique index runs_one_active_per_task on runs (task_id) where state in ('preparing', 'running');
create index runs_task on runs (task_id, created_at desc);
create index runs_active on runs (state) where state in ('preparing', 'running');

-- The conversation. id is the paging cursor. A stored message is at most 100 kB.
create table messages (
  id              bigint generated always as identity primary key,
  task_id         uuid not null references tasks (id) on delete cascade,
  run_id          uuid references runs (id) on delete set null,
  role            text not null check (role in ('user', 'assistant', 'tool', 'system')),
  content         text not null check (octet_length(content) <= 100000),
  tool_call_id    text check (length(tool_call_id) <= 200),
  tool_calls      text check (octet_length(tool_calls) <= 100000),
  sent_during_run boolean not null default false,
  delivered_at    timestamptz,
  truncated       boolean not null default false,
  created_at      timestamptz not null default now()
);
create index messages_task on messages (task_id, id desc);
create index messages_undelivered on messages (run_id) where sent_during_run and delivered_at is null;

-- Tool activity of a run; output is stored up to 20,000 characters plus a marker.
create table tool_activity (
  id               bigint generated always as identity primary key,
  task_id          uuid not null references tasks (id) on delete cascade,
  run_id           uuid not null references runs (id) on delete cascade,
  tool_call_id     text not null check (length(tool_call_id) between 1 and 200),
  tool_name        text not null check (length(tool_name) between 1 and 200),
  arguments        text check (length(arguments) <= 20100),
  status           text not null check (status in ('running', 'ok', 'error', 'denied')),
  output           text check (length(output) <= 20100),
  output_truncated boolean not null default false,
  started_at       timestamptz not null default now(),
  finished_at      timestamptz,
  unique (run_id, tool_call_id)
);
create index tool_activity_task on tool_activity (task_id, id desc);
