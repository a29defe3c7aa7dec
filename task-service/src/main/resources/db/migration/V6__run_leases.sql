-- Runner leases: the agent-runner driving a run renews lease_expires_at by heartbeat. A run whose
-- lease expired lost its runner (crash, kill) and is failed by task-service's sweeper; a live lease
-- keeps the run running through a restart of task-service. A preparing run without a lease was never
-- taken: it waits on the JetStream work queue, which survives restarts.
alter table runs
  add column runner_id        text check (length(runner_id) <= 200),
  add column lease_expires_at timestamptz;

create index runs_active_lease on runs (lease_expires_at) where state in ('preparing', 'running');
