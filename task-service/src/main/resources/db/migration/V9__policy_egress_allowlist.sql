-- A runtime policy's egress allowlist (decision 0012): host names, joined by commas, its sandboxes
-- may reach through the egress proxy; '' allows nothing; null keeps the open internet (as before).
alter table runtime_policies add column egress_allowlist text
  check (length(egress_allowlist) <= 25400 and egress_allowlist !~ '[^a-z0-9.*,-]');
