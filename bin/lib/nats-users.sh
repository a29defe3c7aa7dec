# shellcheck shell=bash
# NATS users of the stack: one per service (plus the operator's CLI), each allowed to publish and
# subscribe only on its own subjects, so a compromised preview-proxy cannot ask sandbox-service to
# run a command. Replies are allowed through allow_responses. Keep in step with docs/nats.md.
# Sourced; defines data and functions only.

declare -A WC_NATS_PUBLISH=(
  [gateway]='"workcell.task.>", "workcell.sandbox.>", "workcell.agent-runner.>", "workcell.preview-proxy.>", "workcell.terminal.>", "$JS.API.>"'
  [task]='"workcell.sandbox.>", "workcell.run.requests", "workcell.run.events.>", "workcell.agent-runner.runs.*.control", "$JS.API.>"'
  [agent-runner]='"workcell.task.>", "workcell.sandbox.>", "workcell.run.events.>", "$JS.API.>", "$JS.ACK.>"'
  [sandbox]='"workcell.task.tasks.known", "workcell.task.runtime.spec", "workcell.task.preview.set", "workcell.sandbox.exec.output.>"'
  [preview-proxy]='"workcell.sandbox.preview.>", "workcell.task.preview.get"'
  [terminal]='"workcell.sandbox.terminal.>", "workcell.task.tickets.consume"'
  [sandbox-mirror]='"workcell.task.tasks.known"'
  [operator]='"workcell.*.ping", "workcell.task.account.ensure"'
)

# Subjects a user may not publish although its allow list covers them: only agent-runner may ask
# task-service for a decrypted provider key (task-service also checks the actor).
declare -A WC_NATS_DENY_PUBLISH=(
  [gateway]='"workcell.task.runner.providers.resolve"'
)

# Services whose users may manage JetStream provision the contract's streams at connect.
wc_nats_manages_streams() { [[ ${WC_NATS_PUBLISH[$1]} == *'$JS.API'* ]]; }

# The authorization block of nats.conf (passwords come from the state folder's secrets).
wc_nats_authorization() {
  local user subscribe deny
  printf 'authorization {\n  users = [\n'
  for user in "${!WC_NATS_PUBLISH[@]}"; do
    subscribe='"_INBOX.>"'
    [[ $user == operator ]] || subscribe+=", \"workcell.$user.>\""
    [[ $user == gateway ]] && subscribe+=', "workcell.run.events.>"'
    [[ $user == agent-runner ]] && subscribe+=', "workcell.run.requests"'
    deny=${WC_NATS_DENY_PUBLISH[$user]:-}
    printf '    { user: "%s", password: "%s",\n      permissions: { publish: { allow: [%s]%s }, subscribe: { allow: [%s] }, allow_responses: true } }\n' \
      "$user" "$(wc_secret "nats-$user")" "${WC_NATS_PUBLISH[$user]}" "${deny:+, deny: [$deny]}" "$subscribe"
  done
  printf '  ]\n}\n'
}
