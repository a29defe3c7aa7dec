-- Approvals of side-effecting tool calls ("Auto Review"); undecided ones expire after 5 minutes.
create table approvals (
  id           uuid primary key,
  task_id      uuid not null references tasks (id) on delete cascade,
  run_id       uuid not null references runs (id) on delete cascade,
  tool_call_id text not null check (length(tool_call_id) between 1 and 200),
  tool_name    text not null check (length(tool_name) between 1 and 200),
  program      text check (length(program) <= 500),
  summary      text check (length(summary) <= 2000),
  state        text not null check (state in ('pending', 'allowed', 'denied', 'expired')),
  decision     text check (decision in ('allow_once', 'always_allow', 'deny', 'rule', 'not_required', 'timeout')),
  decided_by   text,
  created_at   timestamptz not null default now(),
  expires_at   timestamptz not null,
  decided_at   timestamptz
);
create index approvals_pending on approvals (task_id) where state = 'pending';

-- Always-allow rules: a whole tool, or one program of run_command (or one target of message_agent).
create table approval_rules (
  id         uuid primary key,
  task_id    uuid not null references tasks (id) on delete cascade,
  tool_name  text not null check (length(tool_name) between 1 and 200),
  program    text check (length(program) <= 500),
  created_by text,
  created_at timestamptz not null default now()
);
create unique index approval_rules_scope on approval_rules (task_id, tool_name, coalesce(program, ''));

-- One-time WebSocket tickets. Only the SHA-256 of the ticket is stored.
create table ws_tickets (
  id          uuid primary key,
  token_hash  text not null unique check (length(token_hash) = 64),
  audience    text not null check (audience in ('terminal', 'screen')),
  task_id     uuid not null references tasks (id) on delete cascade,
  account_id  uuid not null references accounts (id) on delete cascade,
  created_at  timestamptz not null default now(),
  expires_at  timestamptz not null,
  consumed_at timestamptz
);
create index ws_tickets_expiry on ws_tickets (expires_at);

-- Preview state; cleared at every start (the preview processes died with their sandboxes' owner).
create table previews (
  task_id    uuid primary key references tasks (id) on delete cascade,
  state      text not null check (state in ('starting', 'ready', 'stopped')),
  generation bigint not null default 0,
  host_port  integer check (host_port between 1 and 65535),
  command    text check (length(command) <= 20000),
  updated_at timestamptz not null default now()
);
