-- A host-folder workspace (decision 0023): the real path sandbox-service checked when the task was
-- made, bind-mounted as /workspace instead of the task's volume; null keeps a volume of its own.
alter table tasks add column workspace_folder text
  check (length(workspace_folder) between 2 and 4096 and left(workspace_folder, 1) = '/');
