# shellcheck shell=bash
# Administration on a real stack (issue 24): runtime policies as the sandbox sees them, Git writes
# refused while a run holds the sandbox, and the client generated from /q/openapi. Runs go through the runs fixture model (bin/lib/e2e/
# runs_ollama_fixture.py) added as an admin provider, so the sandbox's own view is what is checked.
# Sourced after bin/lib/test-work-api.sh (wa_call, wa_expect) and bin/lib/test-runs.sh (the fixture);
# defines functions only.
#
#   wt_admin_checks URL ADMIN_TOKEN [LAUNCHER...]
#
# A fresh admin of its own owns the tasks, so earlier sandboxes never meet the per-owner runtime limit.

WAD_POLICY='' WAD_TASK=''

# wad_task_with MODEL [POLICY_ID] — creates a task on the fixture provider; its first run starts at once.
wad_task_with() {
  local policy=${2:+,\"policyId\":\"$2\"}
  wa_call POST /api/work/tasks "$WA_ADMIN" \
    '{"message":"admin check","provider":"ollama","providerId":"admin-check","model":"'"$1"'"'"$policy"'}' \
    && wa_expect 201 || return 1
  WAD_TASK=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$WA_BODY")
  [[ -n $WAD_TASK ]]
}

# wad_run_ended — the task's latest run is no longer preparing or running.
wad_run_ended() {
  local state
  wa_call GET "/api/work/tasks/$WAD_TASK" "$WA_ADMIN" >/dev/null || return 1
  state=$(wt_json latestRun.state <<<"$WA_BODY")
  [[ -n $state && $state != preparing && $state != running ]]
}

# wad_sandbox_is STATE — the task's sandbox reports this state (reading it starts nothing).
wad_sandbox_is() {
  wa_call GET "/api/work/tasks/$WAD_TASK/sandbox" "$WA_ADMIN" >/dev/null && [[ $(wt_json state <<<"$WA_BODY") == "$1" ]]
}

# wad_interfaces — the network interfaces the task's last run listed from inside its sandbox (net.txt).
wad_interfaces() {
  wt_runs_wait 120 wad_run_ended || { echo "the run did not end"; return 1; }
  wa_call GET "/api/work/tasks/$WAD_TASK/file?path=net.txt" "$WA_ADMIN" >/dev/null && [[ $WA_STATUS == 200 ]] || return 1
  wt_json content <<<"$WA_BODY" | xargs # "lo eth0": one line, single spaces
}

wad_provider() {
  wt_runs_model_start || return 1
  wa_call PUT /api/work/admin/providers/admin-check "$WA_ADMIN" '{"kind":"ollama","baseUrl":"'"$(wt_runs_model_url)"'"}' \
    && wa_expect 200
}

# A policy with networkEnabled false: the sandbox of a task under it has only the loopback interface.
wad_network_off_inside() {
  local seen
  wa_call POST /api/work/admin/policies "$WA_ADMIN" '{"name":"no-network-'"$$-$RANDOM"'","networkEnabled":false}' \
    && wa_expect 200 || return 1
  WAD_POLICY=$(wa_field id)
  wad_task_with net-off "$WAD_POLICY" || return 1
  seen=$(wad_interfaces) || return 1
  echo "interfaces inside: $seen"
  [[ $seen == lo ]]
}

# Deleting the policy resets its tasks (network on); the running or stopped sandbox keeps what it was
# created with until it next starts, which recreates it on the open network (workspace kept).
wad_policy_delete_falls_back() {
  local seen
  [[ -n $WAD_POLICY && -n $WAD_TASK ]] || return 1
  wt_runs_wait 60 wad_sandbox_is stopped || { echo "the sandbox did not stop after the run"; return 1; }
  wa_call PUT "/api/work/tasks/$WAD_TASK/file" "$WA_ADMIN" '{"path":"kept.txt","content":"before the delete\n"}' \
    && wa_expect 200 || return 1
  wt_runs_wait 60 wad_sandbox_is stopped || return 1
  wa_call DELETE "/api/work/admin/policies/$WAD_POLICY" "$WA_ADMIN" && wa_expect 200 || return 1
  grep -q '"tasksReset":1' <<<"$WA_BODY" || return 1
  wa_call POST "/api/work/tasks/$WAD_TASK/runs" "$WA_ADMIN" '{"message":"again"}' && wa_expect 201 || return 1
  seen=$(wad_interfaces) || return 1
  echo "interfaces inside after the delete: $seen"
  # net.txt said "lo" alone: a second interface means this run wrote it, in a sandbox with a network.
  [[ $seen == *lo* && $seen == *' '* ]] || return 1
  wa_call GET "/api/work/tasks/$WAD_TASK/file?path=kept.txt" "$WA_ADMIN" && wa_expect 200 \
    && grep -q '"content":"before the delete\\n"' <<<"$WA_BODY"
}

# Policies never carry hardening: a field a policy does not have is refused, not ignored.
wad_hardening_field_refused() {
  local field
  for field in '"privileged":true' '"capAdd":["SYS_ADMIN"]' '"seccompProfile":"unconfined"' '"readOnlyRootfs":false'; do
    wa_call POST /api/work/admin/policies "$WA_ADMIN" '{"name":"hardening-'"$$-$RANDOM"'",'"$field"'}' \
      && wa_expect 400 invalid_request || return 1
  done
  wa_call GET /api/work/admin/policies "$WA_ADMIN" && wa_expect 200 && ! grep -q '"name":"hardening-' <<<"$WA_BODY"
}

# A run holds the sandbox (the fixture's sleep 120): each Git write is 409 sandbox_in_use, reads answer.
wad_git_write_during_run() {
  local events i
  wad_task_with runs-admin-hold || return 1
  for i in {1..180}; do
    wa_call GET "/api/work/tasks/$WAD_TASK/files?path=" "$WA_ADMIN" >/dev/null
    grep -q '"name":"notes.txt"' <<<"$WA_BODY" && break
    sleep 0.5
  done
  wad_run_ended && { echo "the run ended before the writes"; return 1; }
  wa_call POST "/api/work/tasks/$WAD_TASK/git/init" "$WA_ADMIN" && wa_expect 409 sandbox_in_use || return 1
  wa_call POST "/api/work/tasks/$WAD_TASK/git/stage" "$WA_ADMIN" '{"paths":["notes.txt"]}' && wa_expect 409 sandbox_in_use || return 1
  wa_call POST "/api/work/tasks/$WAD_TASK/git/commit" "$WA_ADMIN" '{"message":"during a run"}' \
    && wa_expect 409 sandbox_in_use || return 1
  wa_call GET "/api/work/tasks/$WAD_TASK/git" "$WA_ADMIN" && wa_expect 409 not_a_repository || return 1
  wa_call POST "/api/work/tasks/$WAD_TASK/cancel" "$WA_ADMIN" && wa_expect 200 || return 1
  wt_runs_wait 60 wad_run_ended || return 1
  # Once the run is gone the same write goes through (a release grace may still be holding it).
  for i in {1..30}; do
    wa_call POST "/api/work/tasks/$WAD_TASK/git/init" "$WA_ADMIN" || return 1
    [[ $WA_STATUS == 409 ]] && grep -q '"code":"sandbox_in_use"' <<<"$WA_BODY" || break
    sleep 1
  done
  wa_expect 200
}

# The Java client openapi-generator makes from /q/openapi (openapi-client-tests) creates a task on the
# fixture provider, streams its run's events to done and reads the file the model wrote.
wad_generated_client() {
  local log=$WC_LOGS/openapi-client-test.log
  (cd "$ROOT" && ./mvnw -B -pl openapi-client-tests verify -Dworkcell.url="$WA_URL" -Dworkcell.token="$WA_ADMIN" \
    -Dworkcell.provider-id=admin-check) >"$log" 2>&1
  local rc=$?
  grep -E 'Tests run:|BUILD|ERROR' "$log" | head -n 20
  ((rc == 0)) && grep -q 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0' "$log"
}

# Host-folder workspaces (decision 0023). WAD_HOST_ROOT: a temp directory given to sandbox-service
# as the one root; project/ in it is uid 1000's (the sandbox's user), as an operator would make it.
WAD_HOST_ROOT='' WAD_OUTSIDE='' WAD_STATE=''

# wad_host_task TOKEN FOLDER — asks for a task on FOLDER with the fixture's life- model (writes result.txt).
wad_host_task() {
  local route='"provider":"ollama","providerId":"admin-check","model":"life-host"'
  wa_call POST /api/work/tasks "$1" '{"message":"host folder",'"$route"',"workspaceFolder":"'"$2"'"}'
}

# wad_restart_sandbox [VAR=VALUE...] — sandbox-service alone restarts with these variables (the rest stays up).
wad_restart_sandbox() {
  wc_stop_service sandbox-service "$WAD_STATE/run"
  env "$@" "${WAD_LAUNCHER[@]}" up >/dev/null
}

wad_host_folders_off_by_default() {
  WAD_HOST_ROOT=$(mktemp -d /tmp/wc-host-root.XXXXXX) && WAD_OUTSIDE=$(mktemp -d /tmp/wc-host-outside.XXXXXX) || return 1
  mkdir -p "$WAD_HOST_ROOT/project" "$WAD_HOST_ROOT/node_modules" && chown 1000:1000 "$WAD_HOST_ROOT/project" || return 1
  ln -s "$WAD_OUTSIDE" "$WAD_HOST_ROOT/escape" && ln -s "$WAD_STATE" "$WAD_HOST_ROOT/state-link" || return 1
  wad_host_task "$WA_ADMIN" "$WAD_HOST_ROOT/project" && wa_expect 403 host_folders_disabled || return 1
  wa_call GET /api/work/capabilities "$WA_ADMIN" && wa_expect 200 && [[ $(wt_json runtime.hostFolders <<<"$WA_BODY") == False ]]
}

# Seed 004's variables: WORK_HOST_WORKSPACES_ENABLED and WORK_HOST_WORKSPACE_ROOTS (':'-separated).
wad_host_folders_enabled() {
  wad_restart_sandbox WORK_HOST_WORKSPACES_ENABLED=true "WORK_HOST_WORKSPACE_ROOTS=/nonexistent-root:$WAD_HOST_ROOT" || return 1
  wa_call GET /api/work/capabilities "$WA_ADMIN" && wa_expect 200 && [[ $(wt_json runtime.hostFolders <<<"$WA_BODY") == True ]]
}

# The model's file, a file saved through the API and a file the host writes meet in the one folder;
# the task shows the folder; deleting the task leaves the folder and its files.
wad_host_folder_shared() {
  local folder=$WAD_HOST_ROOT/project i
  wad_host_task "$WA_ADMIN" "$folder/." && wa_expect 201 || return 1
  WAD_TASK=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$WA_BODY")
  [[ $(wt_json task.workspaceFolder <<<"$WA_BODY") == "$folder" ]] || { echo "the task does not show the real path"; return 1; }
  wt_runs_wait 120 wad_run_ended || { echo "the run did not end"; return 1; }
  [[ $(cat "$folder/result.txt") == "made by life-host" && $(stat -c %u "$folder/result.txt") == 1000 ]] \
    || { echo "the model's result.txt is not on the host as uid 1000's"; return 1; }
  wa_call PUT "/api/work/tasks/$WAD_TASK/file" "$WA_ADMIN" '{"path":"from-api.txt","content":"saved through the API\n"}' \
    && wa_expect 200 || return 1
  [[ $(cat "$folder/from-api.txt") == "saved through the API" ]] || { echo "from-api.txt is not on the host"; return 1; }
  echo "written on the host" >"$folder/from-host.txt"
  wa_call GET "/api/work/tasks/$WAD_TASK/file?path=from-host.txt" "$WA_ADMIN" && wa_expect 200 \
    && grep -q '"content":"written on the host\\n"' <<<"$WA_BODY" || return 1
  wa_call GET "/api/work/tasks/$WAD_TASK" "$WA_ADMIN" && wa_expect 200 || return 1
  [[ $(wt_json task.workspaceFolder <<<"$WA_BODY") == "$folder" ]] || return 1
  docker inspect --format '{{range .Mounts}}{{.Type}}:{{.Source}}->{{.Destination}} {{end}}{{.HostConfig.CapDrop}} {{.HostConfig.ReadonlyRootfs}}' \
    "$(docker ps -aq --filter "label=dev.workcell.task=$WAD_TASK" | head -n 1)" | tee -a /dev/stderr \
    | grep -q "bind:$folder->/workspace .*\[ALL\] true" || { echo "not bound, or the hardening changed"; return 1; }
  wa_call DELETE "/api/work/tasks/$WAD_TASK" "$WA_ADMIN" && wa_expect 200 || return 1
  [[ -f $folder/result.txt && -f $folder/from-host.txt ]] || { echo "deleting the task removed files of the folder"; return 1; }
}

# Only admins, even with Work open to every user.
wad_host_folder_admins_only() {
  local user rc=0
  user=$("${WAD_LAUNCHER[@]}" token --user "host-user-$$-$RANDOM" --role user 2>/dev/null) || return 1
  wa_call PUT /api/work/admin/access "$WA_ADMIN" '{"mode":"users"}' && wa_expect 200 || return 1
  wad_host_task "$user" "$WAD_HOST_ROOT/project" && wa_expect 403 forbidden || rc=1
  wa_call GET /api/work/capabilities "$user" && wa_expect 200 && [[ $(wt_json runtime.hostFolders <<<"$WA_BODY") == False ]] || rc=1
  wa_call PUT /api/work/admin/access "$WA_ADMIN" '{"mode":"admins"}' && wa_expect 200 || rc=1
  return $rc
}

# Outside the roots, the state folder (also through a link in the root), a link out of the root, a
# denied name, a file and a relative path: each its own problem code; no task is made.
wad_host_folder_refusals() {
  local before
  wa_call GET /api/work/tasks "$WA_ADMIN" >/dev/null && before=$(grep -o '"id"' <<<"$WA_BODY" | wc -l)
  wad_host_task "$WA_ADMIN" "$WAD_OUTSIDE" && wa_expect 403 host_folder_outside_roots || return 1
  wad_host_task "$WA_ADMIN" "$WAD_STATE" && wa_expect 403 host_folder_denied || return 1
  wad_host_task "$WA_ADMIN" "$WAD_HOST_ROOT/state-link" && wa_expect 403 host_folder_denied || return 1
  wad_host_task "$WA_ADMIN" "$WAD_HOST_ROOT/escape" && wa_expect 403 host_folder_outside_roots || return 1
  wad_host_task "$WA_ADMIN" "$WAD_HOST_ROOT/node_modules" && wa_expect 403 host_folder_denied || return 1
  wad_host_task "$WA_ADMIN" "$WAD_HOST_ROOT/project/result.txt" && wa_expect 422 host_folder_not_found || return 1
  wad_host_task "$WA_ADMIN" "project" && wa_expect 400 invalid_request || return 1
  wa_call GET /api/work/tasks "$WA_ADMIN" >/dev/null && [[ $(grep -o '"id"' <<<"$WA_BODY" | wc -l) == "$before" ]]
}

# Turned off again: the same request is refused (a restart without the variable is the default again).
wad_host_folders_off_again() {
  wad_restart_sandbox || return 1
  wad_host_task "$WA_ADMIN" "$WAD_HOST_ROOT/project" && wa_expect 403 host_folders_disabled
}
wad_cleanup() {
  local id
  wa_call GET /api/work/tasks "$WA_ADMIN" >/dev/null
  for id in $(python3 -c 'import json,sys; print(" ".join(t["id"] for t in json.loads(sys.argv[1])["tasks"]))' "$WA_BODY"); do
    wa_call DELETE "/api/work/tasks/$id" "$WA_ADMIN" >/dev/null
  done
  wa_call DELETE /api/work/admin/providers/admin-check "$WA_ADMIN" >/dev/null
  wt_runs_model_stop # a fixture left running would keep the stack lock of whoever started the checks
  return 0
}

wt_admin_checks() {
  local url=$1 token
  shift 2
  local -a launcher=("$@")
  ((${#launcher[@]})) || launcher=("$ROOT/bin/workcell")
  token=$("${launcher[@]}" token --user "admin-check-$$-$RANDOM" --role admin 2>/dev/null) || token=''
  WA_URL=$url WA_ADMIN=$token
  if ! wt_check "admin: a fresh admin adds the fixture model as a provider" wad_provider; then
    wt_runs_model_stop
    return 0
  fi
  wt_check "admin: a task under a policy with networkEnabled false has only lo inside its sandbox" wad_network_off_inside
  wt_check "admin: deleting the policy resets its task; its next start recreates the sandbox with a network, workspace kept" \
    wad_policy_delete_falls_back
  wt_check "admin: a policy naming a hardening field (privileged, capAdd, seccompProfile, readOnlyRootfs) is 400 invalid_request" \
    wad_hardening_field_refused
  wt_check "admin: Git init, stage and commit during an active run are 409 sandbox_in_use; after it ends init works" \
    wad_git_write_during_run
  wt_check "admin: a client generated from /q/openapi creates a task, streams its events to done and reads the model's file" \
    wad_generated_client
  local arg
  WAD_LAUNCHER=("${launcher[@]}") WAD_STATE=$WC_STATE/stack-test
  for arg in "${launcher[@]}"; do [[ $arg == WORKCELL_STATE=* ]] && WAD_STATE=${arg#*=}; done
  wt_check "admin: host folders are off by default: a task asking for one is 403 host_folders_disabled" \
    wad_host_folders_off_by_default
  if wt_check "admin: sandbox-service restarts with WORK_HOST_WORKSPACES_ENABLED and a temp root; capabilities offer host folders" \
    wad_host_folders_enabled; then
    wt_check "admin: a task on a host folder: the model's file, an API save and a host write meet in the folder; delete keeps it" \
      wad_host_folder_shared
    wt_check "admin: with Work open to users, a user asking for a host folder is 403 forbidden" wad_host_folder_admins_only
    wt_check "admin: outside the roots, the state folder, a link out of the root, node_modules, a file, a relative path are refused" \
      wad_host_folder_refusals
  fi
  wt_check "admin: sandbox-service restarts with host folders off; the same request is 403 host_folders_disabled" \
    wad_host_folders_off_again
  rm -rf "$WAD_HOST_ROOT" "$WAD_OUTSIDE"
  wt_check "admin: the check's tasks and provider are removed" wad_cleanup
}
