# shellcheck shell=bash
# NATS users of the stack: one per service, the admin CLI (`cli`: tokens, pings) and the operators'
# read-only tooling (`operator`). What each may publish and subscribe to is generated from the subject
# table in contracts (nats-permissions.sh, next to this file); replies go back through allow_responses.
# Sourced; defines data and functions only.

# shellcheck source=bin/lib/nats-permissions.sh
source "$(dirname "${BASH_SOURCE[0]}")/nats-permissions.sh"

# Services whose users create and update the contract's streams at connect.
wc_nats_manages_streams() { [[ " ${WC_NATS_STREAM_MANAGERS[*]} " == *" $1 "* ]]; }

# The authorization block of nats.conf (passwords come from the state folder's secrets).
wc_nats_authorization() {
  local user
  printf 'authorization {\n  users = [\n'
  for user in "${!WC_NATS_PUBLISH[@]}"; do
    printf '    { user: "%s", password: "%s",\n      permissions: { publish: { allow: [%s] }, subscribe: { allow: [%s] }, allow_responses: { max: 2 } } }\n' \
      "$user" "$(wc_secret "nats-$user")" "${WC_NATS_PUBLISH[$user]}" "${WC_NATS_SUBSCRIBE[$user]}"
  done
  printf '  ]\n}\n'
}
