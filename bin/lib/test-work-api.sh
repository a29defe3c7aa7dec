# shellcheck shell=bash
# Work API checks against a real stack (gateway → task-service, sandbox-service, Docker, celld):
# files with conflict detection, git status/diff and writes, ownership, input limits and problem answers.
# Sourced by bin/lib/test.sh; defines functions only. Each check reports through wt_check.
#
#   wt_work_api_checks URL ADMIN_TOKEN [LAUNCHER...]
#
# LAUNCHER is the command that issues tokens for this stack (default: bin/workcell with the current
# environment), e.g. "${stack[@]}" from wt_stack_tests.

WA_LAUNCHER=() WA_URL='' WA_ADMIN='' WA_OTHER='' WA_USER='' WA_TASK='' WA_VERSION='' WA_STATUS='' WA_TYPE='' WA_BODY=''

# wa_call METHOD PATH TOKEN [BODY|@FILE] — sets WA_STATUS, WA_TYPE and WA_BODY (also logged).
wa_call() {
  local method=$1 path=$2 token=$3 data=${4-} out
  local -a args=(-s -o - -w '\n%{content_type}\n%{http_code}' -X "$method" -H "Authorization: Bearer $token" --max-time 90)
  if [[ -n $data ]]; then
    args+=(-H 'Content-Type: application/json' --data-binary "$data")
  fi
  out=$(curl "${args[@]}" "$WA_URL$path") || { WA_STATUS=000 WA_TYPE='' WA_BODY=''; return 1; }
  WA_STATUS=${out##*$'\n'}
  out=${out%$'\n'*}
  WA_TYPE=${out##*$'\n'}
  WA_BODY=${out%$'\n'*}
  printf '%s %s -> %s %s %.400s\n' "$method" "$path" "$WA_STATUS" "$WA_TYPE" "$WA_BODY"
}

# wa_expect STATUS [CODE] — the last answer had this status (and, with CODE, was a problem with that code).
wa_expect() {
  [[ $WA_STATUS == "$1" ]] || { echo "expected $1, got $WA_STATUS"; return 1; }
  if [[ -n ${2-} ]]; then
    [[ $WA_TYPE == application/problem+json* ]] || { echo "expected application/problem+json, got $WA_TYPE"; return 1; }
    grep -q "\"code\":\"$2\"" <<<"$WA_BODY" || { echo "expected problem code $2"; return 1; }
  fi
}

wa_field() { # wa_field NAME — a top-level string field of the last answer
  sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" <<<"$WA_BODY" | head -n 1
}

wa_create_task() {
  wa_call POST /api/work/tasks "$WA_ADMIN" '{"message":"keep notes","provider":"ollama","model":"qwen3:8b","title":"work api check"}' \
    && wa_expect 201 || return 1
  WA_TASK=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$WA_BODY")
  [[ -n $WA_TASK ]]
}

wa_save_and_read_back() {
  local t=/api/work/tasks/$WA_TASK
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":"notes/hello.txt","content":"hello from the work api\n","createParents":true}' \
    && wa_expect 200 || return 1
  WA_VERSION=$(wa_field version)
  [[ -n $WA_VERSION ]] || return 1
  wa_call GET "$t/file?path=notes/hello.txt" "$WA_ADMIN" && wa_expect 200 || return 1
  grep -q '"content":"hello from the work api\\n"' <<<"$WA_BODY" && [[ $(wa_field version) == "$WA_VERSION" ]]
}

wa_stale_save_conflicts() {
  local t=/api/work/tasks/$WA_TASK stale=$WA_VERSION
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":"notes/hello.txt","content":"second\n","expectedVersion":"'"$stale"'"}' \
    && wa_expect 200 || return 1
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":"notes/hello.txt","content":"lost update\n","expectedVersion":"'"$stale"'"}' \
    && wa_expect 409 conflict || return 1
  wa_call GET "$t/file?path=notes/hello.txt" "$WA_ADMIN" && wa_expect 200 && grep -q '"content":"second\\n"' <<<"$WA_BODY"
}

wa_list_files() {
  wa_call GET "/api/work/tasks/$WA_TASK/files?path=notes" "$WA_ADMIN" && wa_expect 200 && grep -q '"name":"hello.txt"' <<<"$WA_BODY"
}

wa_git_without_repository() {
  wa_call GET "/api/work/tasks/$WA_TASK/git" "$WA_ADMIN" && wa_expect 409 not_a_repository || return 1
  wa_call GET "/api/work/tasks/$WA_TASK/git/diff" "$WA_ADMIN" && wa_expect 409 not_a_repository
}

# The Git writes through the API (issue 24): init, stage, commit, branch, a dirty switch refused, the limits.
wa_git_writes() {
  local t=/api/work/tasks/$WA_TASK body
  local i
  # The task's first run (its provider is not reachable here) may still hold the sandbox: sandbox_in_use until it ends.
  for i in {1..45}; do
    wa_call POST "$t/git/init" "$WA_ADMIN" || return 1
    [[ $WA_STATUS == 409 ]] && grep -q '"code":"sandbox_in_use"' <<<"$WA_BODY" || break
    sleep 2
  done
  wa_expect 200 && grep -q '"branch":"main"' <<<"$WA_BODY" || return 1
  wa_call POST "$t/git/init" "$WA_ADMIN" && wa_expect 409 already_exists || return 1
  wa_call GET "$t/git/diff?path=notes" "$WA_ADMIN" && wa_expect 200 && grep -q 'second' <<<"$WA_BODY" || return 1
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":"notes/git.txt","content":"one\n"}' && wa_expect 200 || return 1
  wa_call POST "$t/git/stage" "$WA_ADMIN" '{"paths":["notes/hello.txt","notes/git.txt"]}' && wa_expect 200 || return 1
  grep -q '"path":"notes/hello.txt","index":"A"' <<<"$WA_BODY" || return 1
  wa_call POST "$t/git/commit" "$WA_ADMIN" '{"message":"Keep the notes"}' && wa_expect 200 || return 1
  grep -q '"subject":"Keep the notes"' <<<"$WA_BODY" || return 1
  wa_call POST "$t/git/commit" "$WA_ADMIN" '{"message":"again"}' && wa_expect 409 nothing_to_commit || return 1
  wa_call POST "$t/git/branches" "$WA_ADMIN" '{"name":"topic"}' && wa_expect 200 || return 1
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":"notes/git.txt","content":"two\n"}' && wa_expect 200 || return 1
  wa_call POST "$t/git/switch" "$WA_ADMIN" '{"name":"topic"}' && wa_expect 409 worktree_not_clean || return 1
  wa_call POST "$t/git/stage" "$WA_ADMIN" '{"paths":["notes/git.txt"]}' && wa_expect 200 || return 1
  wa_call POST "$t/git/commit" "$WA_ADMIN" '{"message":"Third"}' && wa_expect 200 || return 1
  wa_call POST "$t/git/switch" "$WA_ADMIN" '{"name":"topic"}' && wa_expect 200 && grep -q '"branch":"topic"' <<<"$WA_BODY" || return 1
  body=$(printf '"a",%.0s' {1..201})
  wa_call POST "$t/git/stage" "$WA_ADMIN" "{\"paths\":[${body%,}]}" && wa_expect 413 too_many_paths || return 1
  body=$(head -c 4001 /dev/zero | tr '\0' x)
  wa_call POST "$t/git/commit" "$WA_ADMIN" "{\"message\":\"$body\"}" && wa_expect 413 commit_message_too_long
}

# A repository whose config names programs (fsmonitor, ssh, external diff, textconv, a filter), each a
# shell command that leaves a marker in the workspace: no API call runs one; stage is refused.
wa_git_runs_no_repository_program() {
  local t=/api/work/tasks/$WA_TASK m
  local config='[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = touch marker-fsmonitor\n'
  config+='\tsshCommand = touch marker-ssh\n\tpager = touch marker-pager\n[diff]\n\texternal = touch marker-external\n'
  config+='[diff \"evil\"]\n\ttextconv = touch marker-textconv; cat\n[filter \"evil\"]\n\tclean = touch marker-clean; cat\n'
  config+='\tsmudge = touch marker-smudge; cat\n'
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":".git/config","content":"'"$config"'"}' && wa_expect 200 || return 1
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":".gitattributes","content":"* diff=evil filter=evil\n"}' && wa_expect 200 || return 1
  wa_call PUT "$t/file" "$WA_ADMIN" '{"path":"notes/git.txt","content":"fourth\n"}' && wa_expect 200 || return 1
  wa_call GET "$t/git" "$WA_ADMIN" && wa_expect 200 || return 1
  wa_call GET "$t/git/diff" "$WA_ADMIN" && wa_expect 200 && grep -q 'fourth' <<<"$WA_BODY" || return 1
  wa_call POST "$t/git/stage" "$WA_ADMIN" '{"paths":["notes/git.txt"]}' && wa_expect 409 unsafe_repository || return 1
  wa_call POST "$t/git/switch" "$WA_ADMIN" '{"name":"main"}' && wa_expect 409 unsafe_repository || return 1
  wa_call POST "$t/git/branches" "$WA_ADMIN" '{"name":"later"}' && wa_expect 200 || return 1
  wa_call GET "$t/files?path=" "$WA_ADMIN" && wa_expect 200 || return 1
  if m=$(grep -o '"name":"marker-[a-z]*"' <<<"$WA_BODY"); then
    echo "a repository program ran: $m"
    return 1
  fi
}

wa_other_accounts_see_nothing() {
  local t=/api/work/tasks/$WA_TASK
  [[ -n $WA_OTHER && -n $WA_USER ]] || { echo "token --user failed"; return 1; }
  # Another admin: Work is open to admins, and a task of another account is not_found, for admins too.
  wa_call GET "$t/files?path=" "$WA_OTHER" && wa_expect 404 not_found || return 1
  wa_call GET "$t/file?path=notes/hello.txt" "$WA_OTHER" && wa_expect 404 not_found || return 1
  wa_call PUT "$t/file" "$WA_OTHER" '{"path":"notes/hello.txt","content":"mine now\n"}' && wa_expect 404 not_found || return 1
  wa_call GET "$t/git" "$WA_OTHER" && wa_expect 404 not_found || return 1
  # A plain user: refused either way (Work may be closed to users: work_access_denied).
  wa_call GET "$t/files?path=" "$WA_USER" || return 1
  [[ $WA_STATUS == 404 ]] || wa_expect 403 work_access_denied || return 1
  wa_call GET "$t/file?path=notes/hello.txt" "$WA_ADMIN" && grep -q '"content":"second\\n"' <<<"$WA_BODY"
}

wa_message_too_long() {
  local body
  body=$(mktemp)
  { printf '{"message":"'; head -c 65537 /dev/zero | tr '\0' x; printf '"}'; } >"$body"
  wa_call POST "/api/work/tasks/$WA_TASK/runs" "$WA_ADMIN" "@$body"
  rm -f "$body"
  wa_expect 413 message_too_long
}

wa_malformed_json() {
  wa_call POST /api/work/tasks "$WA_ADMIN" '{"message": "unterminated' && wa_expect 400 malformed_json || return 1
  wa_call PUT "/api/work/tasks/$WA_TASK/file" "$WA_ADMIN" '{"path":' && wa_expect 400 malformed_json
}

wa_delete_task() {
  wa_call DELETE "/api/work/tasks/$WA_TASK" "$WA_ADMIN" && wa_expect 200 || return 1
  wa_call GET "/api/work/tasks/$WA_TASK/files?path=" "$WA_ADMIN" && wa_expect 404 not_found
}

# wa_account_id USERNAME — the id of an account, from the admin's account list.
wa_account_id() {
  wa_call GET /api/work/admin/accounts "$WA_ADMIN" >/dev/null && [[ $WA_STATUS == 200 ]] || return 1
  python3 -c 'import json,sys; print(next(a["id"] for a in json.loads(sys.argv[1])["accounts"] if a["username"] == sys.argv[2]))' \
    "$WA_BODY" "$1"
}

wa_admin_lists_accounts_users_cannot() {
  wa_call GET /api/work/admin/accounts "$WA_ADMIN" && wa_expect 200 || return 1
  grep -q '"username":"work-api-user"' <<<"$WA_BODY" || return 1
  wa_call GET /api/work/admin/accounts "$WA_USER" && wa_expect 403 forbidden || return 1
  wa_call PUT /api/work/admin/access "$WA_USER" '{"mode":"users"}' && wa_expect 403 forbidden
}

# Seed 004's order: open Work to users, demote an admin (their admin calls are refused at once),
# disable a user (their next request is refused, a file request too: the gateway forgets the
# ownership answer it reused the moment task-service announces the change, decision 0025), delete
# them with their tasks; each change audited.
wa_accounts_managed_in_order() {
  local user other task
  user=$(wa_account_id work-api-user) && other=$(wa_account_id work-api-other-admin) || return 1
  wa_call PUT /api/work/admin/access "$WA_ADMIN" '{"mode":"users"}' && wa_expect 200 || return 1
  wa_call POST /api/work/tasks "$WA_USER" '{"message":"mine","provider":"ollama","model":"qwen3:8b"}' && wa_expect 201 || return 1
  task=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$WA_BODY")
  wa_call PUT "/api/work/tasks/$task/file" "$WA_USER" '{"path":"mine.txt","content":"mine"}' && wa_expect 200 || return 1
  wa_call GET "/api/work/tasks/$task/file?path=mine.txt" "$WA_USER" && wa_expect 200 || return 1
  wa_call PUT "/api/work/admin/accounts/$other/role" "$WA_ADMIN" '{"role":"user"}' && wa_expect 200 || return 1
  grep -q '"role":"USER"' <<<"$WA_BODY" || return 1
  wa_call GET /api/work/admin/accounts "$WA_OTHER" && wa_expect 403 forbidden || return 1
  wa_call PUT "/api/work/admin/accounts/$user/status" "$WA_ADMIN" '{"status":"disabled"}' && wa_expect 200 || return 1
  wa_call GET "/api/work/tasks/$task/file?path=mine.txt" "$WA_USER" && wa_expect 403 account_disabled || return 1
  wa_call GET /api/work/tasks "$WA_USER" && wa_expect 403 account_disabled || return 1
  wa_call DELETE "/api/work/admin/accounts/$user" "$WA_ADMIN" && wa_expect 200 || return 1
  grep -q '"deletedTasks":1' <<<"$WA_BODY" || return 1
  wa_call GET /api/work/admin/accounts "$WA_ADMIN" && ! grep -q '"username":"work-api-user"' <<<"$WA_BODY" || return 1
  wa_call GET "/api/work/admin/audit?limit=20" "$WA_ADMIN" && wa_expect 200 || return 1
  local action
  for action in access.mode account.role account.status account.delete; do
    grep -q "\"action\":\"$action\"" <<<"$WA_BODY" || { echo "no $action in the audit log"; return 1; }
  done
}

# Puts back what the admin checks changed: Work for admins only, the demoted admin promoted again.
wa_admin_restore() {
  local other
  other=$(wa_account_id work-api-other-admin) || return 1
  wa_call PUT "/api/work/admin/accounts/$other/role" "$WA_ADMIN" '{"role":"admin"}' && wa_expect 200 || return 1
  wa_call PUT /api/work/admin/access "$WA_ADMIN" '{"mode":"admins"}' && wa_expect 200
}

# The README's first task: its lines as written (between the first-task markers) in a shell whose
# bin/workcell names this stack, with the runs fixture model (model "life-…" writes result.txt).
wa_readme_first_task() {
  local -a stack_env=("${WA_LAUNCHER[@]:0:${#WA_LAUNCHER[@]}-1}")
  ((${#stack_env[@]})) || stack_env=(env)
  local block out
  block=$(sed -n '/<!-- first-task:begin -->/,/<!-- first-task:end -->/p' "$ROOT/README.md" | sed '1,2d' | head -n -2)
  [[ $block == *'/api/work/tasks'* ]] || { echo "no first-task block in README.md"; return 1; }
  wt_runs_model_start || return 1
  out=$(cd "$ROOT" && timeout 240 "${stack_env[@]}" OLLAMA_URL="$(wt_runs_model_url)" MODEL=life-readme bash -c "$block" 2>&1)
  printf '%s\n' "$out" | tail -n 20
  wa_call DELETE /api/work/admin/providers/local "$WA_ADMIN" >/dev/null
  wt_runs_model_stop # a fixture left running would keep the stack lock of whoever started the checks
  grep -q '^event: *done' <<<"$out" && grep -q '"content":"made by life-readme\\n"' <<<"$out"
}

wt_work_api_checks() {
  WA_URL=$1 WA_ADMIN=$2
  shift 2
  local -a launcher=("$@")
  ((${#launcher[@]})) || launcher=("$ROOT/bin/workcell")
  WA_LAUNCHER=("${launcher[@]}")
  WA_OTHER=$("${launcher[@]}" token --user work-api-other-admin --role admin 2>/dev/null) || WA_OTHER=''
  WA_USER=$("${launcher[@]}" token --user work-api-user --role user 2>/dev/null) || WA_USER=''
  if ! wt_check "work api: a task is created" wa_create_task; then
    return 0 # nothing below can run without it
  fi
  wt_check "work api: a file saved through PUT /file reads back with its version" wa_save_and_read_back
  wt_check "work api: a save with a stale version is 409 conflict and changes nothing" wa_stale_save_conflicts
  wt_check "work api: the directory lists the saved file" wa_list_files
  wt_check "work api: git of a workspace without a repository is 409 not_a_repository" wa_git_without_repository
  wt_check "work api: git init, stage, commit, branch; a dirty switch is 409; 201 paths or 4,001 characters are 413" wa_git_writes
  wt_check "work api: git runs no program the repository names (fsmonitor, ssh, diff, textconv, filter)" \
    wa_git_runs_no_repository_program
  wt_check "work api: another account gets 404 for the task's files and git, and changes nothing" \
    wa_other_accounts_see_nothing
  wt_check "work api: a 65,537-character message is 413 message_too_long (problem+json)" wa_message_too_long
  wt_check "work api: malformed JSON is a 400 malformed_json problem" wa_malformed_json
  wt_check "work api: the task is deleted with its workspace" wa_delete_task
  wt_check "admin api: an admin lists accounts; a user is 403 forbidden" wa_admin_lists_accounts_users_cannot
  wt_check "admin api: open Work to users, demote an admin, disable then delete a user with their task; all audited" \
    wa_accounts_managed_in_order
  wt_check "admin api: access and the admin's role put back" wa_admin_restore
  wt_check "readme: the first task's commands run as written (provider, task, live events, the model's file)" wa_readme_first_task
}
