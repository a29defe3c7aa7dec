-- Model providers configured by admins. The API key is stored only as AES-256-GCM ciphertext with
-- its nonce (the key file lives outside the database); both are null when the provider has no key.
-- No reference to tasks or runs: those name a provider by id and re-check it before every request.
create table providers (
  id                 text primary key check (id ~ '^[A-Za-z0-9._-]{1,200}$'),
  kind               text not null check (kind in ('ollama', 'openai', 'anthropic', 'gemini')),
  base_url           text not null check (length(base_url) between 1 and 2000),
  api_key_ciphertext bytea,
  api_key_nonce      bytea,
  models             text not null default '[]' check (jsonb_typeof(models::jsonb) = 'array'),
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  check ((api_key_ciphertext is null) = (api_key_nonce is null))
);
