#!/usr/bin/env bash
# Build the Workcell sandbox image(s) here, without a container registry.
#   docker/sandbox/build.sh                 sandbox image (reused when up to date)
#   docker/sandbox/build.sh --force         rebuild the sandbox image without the layer cache
#   docker/sandbox/build.sh --force-base    also debootstrap the base root filesystem again
#   docker/sandbox/build.sh --office        also the office/data image
# Starts a Docker engine if none answers (see bin/lib/docker-engine.sh).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=bin/lib/docker-engine.sh
source "$ROOT/bin/lib/docker-engine.sh"
# shellcheck source=bin/lib/sandbox-image.sh
source "$ROOT/bin/lib/sandbox-image.sh"

main() {
  local office=0 arg
  local -a sandbox_args=() office_args=()
  for arg in "$@"; do
    case $arg in
      --force) sandbox_args+=(--force) office_args+=(--force) ;;
      --force-base) sandbox_args+=(--force-base) office_args+=(--force) ;;
      --office) office=1 ;;
      -h | --help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; return 0 ;;
      *) de_err "unknown option $arg (try --help)"; return 2 ;;
    esac
  done
  ensure_docker_engine
  ensure_sandbox_image "${sandbox_args[@]}"
  if ((office)); then
    build_office_image "${office_args[@]}"
  fi
}

main "$@"
