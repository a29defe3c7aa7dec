-- Accounts: who may use Work. Roles and status are decided here, never by a token's claims.
create table accounts (
  id          uuid primary key,
  username    text not null unique check (length(username) between 1 and 200),
  role        text not null check (role in ('admin', 'user')),
  status      text not null default 'active' check (status in ('active', 'disabled')),
  created_at  timestamptz not null default now()
);
