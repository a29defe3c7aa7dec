# shellcheck shell=bash
# Sandbox images for Workcell, built without a container registry: a Debian root filesystem made by
# debootstrap from the host's own apt mirror is imported as the base, then docker/sandbox/Dockerfile
# adds the tools and celld. Meant to be sourced; defines functions only.
#
# Public:   ensure_sandbox_image [--force] [--force-base], build_office_image [--force]
# Reads:    WORK_RUNTIME_IMAGE   sandbox image name        (default workcell/sandbox:dev)
#           WORK_OFFICE_IMAGE    office image name         (default workcell/sandbox-office:dev)
#           WORKCELL_SANDBOX_BASE  use this base instead of a debootstrapped one (e.g. a registry
#                                  debian:bookworm-slim); skips debootstrap entirely
#           WORKCELL_STATE       state dir (default <repo>/.workcell)
# Writes:   $WORKCELL_STATE/logs/sandbox-image.log, $WORKCELL_STATE/cache/rootfs-*.tar.gz,
#           $ROOT/build/celld (via celld/build.sh)

# shellcheck source=bin/lib/docker-engine.sh
declare -F ensure_docker_engine >/dev/null || source "$(dirname "${BASH_SOURCE[0]}")/docker-engine.sh"

SI_ROOT=${SI_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# Bump when the rootfs preparation below changes, so cached tarballs are not reused.
SI_ROOTFS_VERSION=2

si_sandbox_image() { printf '%s\n' "${WORK_RUNTIME_IMAGE:-workcell/sandbox:dev}"; }
si_office_image() { printf '%s\n' "${WORK_OFFICE_IMAGE:-workcell/sandbox-office:dev}"; }
si_log() { printf '%s\n' "$(de_state)/logs/sandbox-image.log"; }

# Numbered steps with elapsed seconds: si_step 2 4 "title" … si_step_done "detail".
si_step() {
  SI_STEP_START=$SECONDS
  printf '  [%s/%s] %s\n' "$1" "$2" "$3" >&2
}
si_step_done() { printf '    -> %s (%s s)\n' "${1:-done}" "$((SECONDS - SI_STEP_START))" >&2; }

si_codename() {
  (
    # shellcheck disable=SC1091
    . /etc/os-release 2>/dev/null
    printf '%s\n' "${VERSION_CODENAME:-}"
  )
}

# Prints "URI<TAB>SUITE<TAB>COMPONENTS" for every enabled binary ('deb') source of the host, from
# one-line sources.list files and deb822 .sources files.
si_host_apt_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r $f ]] || continue
    awk '
      { sub(/#.*/, ""); gsub(/\[[^]]*\]/, "") }
      $1 == "deb" && NF >= 3 {
        comps = ""; for (i = 4; i <= NF; i++) comps = comps (comps == "" ? "" : " ") $i
        print $2 "\t" $3 "\t" comps
      }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f ]] || continue
    awk '
      function reset() { types = ""; uris = ""; suites = ""; comps = ""; enabled = "yes"; key = "" }
      function flush(   n, m, i, j, U, S) {
        if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no") {
          n = split(uris, U, " "); m = split(suites, S, " ")
          for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print U[i] "\t" S[j] "\t" comps
        }
        reset()
      }
      function set(k, v) {
        gsub(/[ \t]+/, " ", v); sub(/^ /, "", v); sub(/ $/, "", v)
        if (k == "types") types = types " " v
        else if (k == "uris") uris = uris " " v
        else if (k == "suites") suites = suites " " v
        else if (k == "components") comps = (comps == "" ? v : comps " " v)
        else if (k == "enabled") enabled = v
      }
      BEGIN { reset() }
      /^#/ { next }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]/ { set(key, $0); next }
      { i = index($0, ":"); if (i == 0) next; key = tolower(substr($0, 1, i - 1)); set(key, substr($0, i + 1)) }
      END { flush() }' "$f"
  done
}

# si_pick_source SUITE — first host source URI serving SUITE with component main.
si_pick_source() {
  si_host_apt_sources | awk -F'\t' -v suite="$1" '
    $2 == suite && (" " $3 " ") ~ / main / { sub(/\/+$/, "", $1); print $1; exit }'
}

# Sets SI_CODENAME, SI_MIRROR, SI_UPDATES_MIRROR, SI_SECURITY_MIRROR from the host's apt sources.
si_detect_mirror() {
  SI_CODENAME=$(si_codename)
  if [[ -z $SI_CODENAME ]]; then
    de_err "no VERSION_CODENAME in /etc/os-release: cannot pick a suite for debootstrap"
    return 1
  fi
  SI_MIRROR=$(si_pick_source "$SI_CODENAME")
  SI_UPDATES_MIRROR=$(si_pick_source "$SI_CODENAME-updates")
  SI_SECURITY_MIRROR=$(si_pick_source "$SI_CODENAME-security")
  if [[ -z $SI_MIRROR ]]; then
    de_err "no apt source for suite '$SI_CODENAME' with component main in /etc/apt/sources.list{,.d/}"
    de_err "add one, or set WORKCELL_SANDBOX_BASE to a base image you can pull"
    return 1
  fi
  if [[ $SI_MIRROR != http://* && $SI_MIRROR != https://* ]]; then
    de_err "apt source '$SI_MIRROR' is not http(s); a docker build cannot reach it"
    return 1
  fi
}

# The apt settings the host relies on to reach its mirror (proxy, snapshot dates), copied as they are.
si_host_apt_settings() {
  apt-config dump 2>/dev/null | grep -E '^Acquire::(Check-Valid-Until|Check-Date|Retries|https?::Proxy) ' || true
}

si_rootfs_tarball() {
  printf '%s/cache/rootfs-%s-%s-v%s.tar.gz\n' "$(de_state)" "$SI_CODENAME" "$(dpkg --print-architecture)" "$SI_ROOTFS_VERSION"
}

# Make the rootfs container-friendly: host mirror (+updates, +security) in sources.list, no
# recommends, no docs/man pages, no service starts during builds, no host identity left behind.
si_prepare_rootfs() {
  local dir=$1
  {
    printf 'deb %s %s main\n' "$SI_MIRROR" "$SI_CODENAME"
    [[ -z $SI_UPDATES_MIRROR ]] || printf 'deb %s %s-updates main\n' "$SI_UPDATES_MIRROR" "$SI_CODENAME"
    [[ -z $SI_SECURITY_MIRROR ]] || printf 'deb %s %s-security main\n' "$SI_SECURITY_MIRROR" "$SI_CODENAME"
  } >"$dir/etc/apt/sources.list"
  {
    printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n'
    si_host_apt_settings
  } >"$dir/etc/apt/apt.conf.d/90workcell"
  mkdir -p "$dir/etc/dpkg/dpkg.cfg.d"
  cat >"$dir/etc/dpkg/dpkg.cfg.d/90workcell-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
EOF
  printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
  chmod 0755 "$dir/usr/sbin/policy-rc.d"
  # What the dpkg excludes keep out of later packages, removed from the bootstrapped ones (~45 MB).
  find "$dir/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
  find "$dir/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$dir/usr/share/man/"* "$dir/usr/share/info/"* "$dir/usr/share/lintian/"* "$dir/usr/share/locale/"*
  : >"$dir/etc/resolv.conf"
  : >"$dir/etc/hostname"
  rm -rf "$dir/var/cache/apt/archives/"*.deb "$dir/var/cache/apt/"*.bin "$dir/var/lib/apt/lists/"* \
    "$dir/var/log/"*.log "$dir/var/log/apt/"* "$dir/debootstrap"
}

# Remove a debootstrap target, never crossing into a mount that a failed run may have left inside.
si_remove_rootfs() {
  local dir=$1 m
  [[ -d $dir ]] || return 0
  while read -r m; do umount -l "$m" 2>/dev/null || true; done < <(
    awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r)
  rm -rf --one-file-system "$dir"
}

# debootstrap the host's codename from its mirror into a cached tarball (skipped if cached).
si_build_rootfs_tarball() {
  local tarball=$1 log dir rc=0
  log=$(si_log)
  if [[ -s $tarball ]]; then
    de_info "reusing cached root filesystem $tarball"
    return 0
  fi
  command -v debootstrap >/dev/null 2>&1 || de_apt_install debootstrap || return
  mkdir -p "$(dirname "$tarball")"
  dir="$(dirname "$tarball")/rootfs-$SI_CODENAME.tmp"
  si_remove_rootfs "$dir"
  local -a include=()
  # An https mirror needs CA certificates before the image can run apt-get itself.
  [[ $SI_MIRROR != https://* ]] || include=(--include=ca-certificates)
  de_info "debootstrap --variant=minbase $SI_CODENAME from $SI_MIRROR (log: $log)"
  de_run_logged "$log" debootstrap --variant=minbase "${include[@]}" \
    --arch "$(dpkg --print-architecture)" "$SI_CODENAME" "$dir" "$SI_MIRROR" || rc=$?
  if ((rc != 0)); then
    [[ ! -s $dir/debootstrap/debootstrap.log ]] || de_show_log_tail "$dir/debootstrap/debootstrap.log" 15
    si_remove_rootfs "$dir"
    return "$rc"
  fi
  si_prepare_rootfs "$dir"
  de_info "packing $(du -sh --one-file-system "$dir" | cut -f1) root filesystem to $tarball"
  if ! tar --numeric-owner --one-file-system -C "$dir" -c . | gzip -1 >"$tarball.tmp"; then
    de_err "packing the root filesystem failed"
    rm -f "$tarball.tmp"
    si_remove_rootfs "$dir"
    return 1
  fi
  mv "$tarball.tmp" "$tarball"
  si_remove_rootfs "$dir"
}

si_image_exists() { docker image inspect "$1" >/dev/null 2>&1; }
si_image_label() { docker image inspect -f "{{index .Config.Labels \"$2\"}}" "$1" 2>/dev/null; }
si_image_id() { docker image inspect -f '{{.Id}}' "$1" 2>/dev/null; }

# Prints the base image reference, importing workcell/base:<codename> if it is missing.
si_ensure_base_image() {
  local force=$1 base tarball log
  if [[ -n ${WORKCELL_SANDBOX_BASE:-} ]]; then
    de_info "using WORKCELL_SANDBOX_BASE=$WORKCELL_SANDBOX_BASE (no debootstrap)"
    printf '%s\n' "$WORKCELL_SANDBOX_BASE"
    return 0
  fi
  si_detect_mirror || return
  base="workcell/base:$SI_CODENAME"
  tarball=$(si_rootfs_tarball)
  log=$(si_log)
  if ((force)); then
    de_info "--force-base: discarding $base and $tarball"
    docker image rm -f "$base" >/dev/null 2>&1 || true
    rm -f "$tarball"
  fi
  if si_image_exists "$base"; then
    de_info "base image $base exists"
    printf '%s\n' "$base"
    return 0
  fi
  si_build_rootfs_tarball "$tarball" || return
  de_info "docker import $tarball as $base"
  de_run_logged "$log" docker import \
    -c 'CMD ["/bin/bash"]' -c 'ENV LANG=C.UTF-8' -c 'LABEL dev.workcell.image=base' \
    "$tarball" "$base" || return
  printf '%s\n' "$base"
}

# Builds celld with celld/build.sh when it exists; prints the binary's path.
si_build_celld() {
  local out="$SI_ROOT/build/celld" log
  log=$(si_log)
  if [[ -f $SI_ROOT/celld/build.sh ]]; then
    de_info "celld/build.sh -> build/celld (log: $log)"
    (cd "$SI_ROOT" && export OUT="$out" && de_run_logged "$log" bash celld/build.sh) || return
  elif [[ -x $out ]]; then
    de_info "celld/build.sh not found: using the existing $out"
  else
    de_err "no celld: neither celld/build.sh nor build/celld exists"
    return 1
  fi
  if [[ ! -s $out ]]; then
    de_err "celld/build.sh did not produce $out"
    return 1
  fi
  if command -v file >/dev/null 2>&1 && ! file -b "$out" | grep -q 'statically linked'; then
    de_info "warning: $out is not statically linked; sandboxes of images without its libc cannot run it (celld reaches every image from its volume)"
  fi
  printf '%s\n' "$out"
}

# si_docker_build LOG IMAGE CONTEXT NO_CACHE [docker build args...]
si_docker_build() {
  local log=$1 image=$2 ctx=$3 no_cache=$4
  shift 4
  local -a args=(--network host --tag "$image")
  ((no_cache)) && args+=(--no-cache)
  # The classic builder is in every docker.io; BuildKit needs a buildx plugin not packaged here.
  # Host network: the build's apt reaches the mirror exactly as the host does (its /etc/hosts,
  # resolver and proxy), even where the bridge has no NAT.
  DOCKER_BUILDKIT=0 de_run_logged "$log" docker build "${args[@]}" "$@" "$ctx"
}

# A throwaway build context: only the Dockerfile and celld, never the whole repository.
si_make_context() {
  local ctx
  ctx="$(de_state)/build/$1"
  rm -rf "$ctx"
  mkdir -p "$ctx"
  printf '%s\n' "$ctx"
}

# shellcheck disable=SC2120 # options are optional; callers in this file pass none
ensure_sandbox_image() {
  local force=0 force_base=0 arg
  for arg in "$@"; do
    case $arg in
      --force) force=1 ;;
      --force-base) force=1 force_base=1 ;;
      *) de_err "ensure_sandbox_image: unknown option $arg"; return 2 ;;
    esac
  done
  local image log started=$SECONDS
  image=$(si_sandbox_image)
  log=$(si_log)
  mkdir -p "$(dirname "$log")"
  de_rotate_log "$log"
  de_say "sandbox image $image (log: $log)"
  de_docker_answers || ensure_docker_engine || return

  local base celld
  si_step 1 4 "base image"
  base=$(si_ensure_base_image "$force_base") || return
  si_step_done "$base"

  si_step 2 4 "celld binary"
  celld=$(si_build_celld) || return
  local celld_sha dockerfile recipe
  celld_sha=$(sha256sum "$celld" | cut -d' ' -f1)
  si_step_done "sha256 ${celld_sha:0:12}"

  si_step 3 4 "sandbox image $image"
  dockerfile="$SI_ROOT/docker/sandbox/Dockerfile"
  recipe=$({ cat "$dockerfile"; printf '%s\n' "$base" "$(si_image_id "$base")"; } | sha256sum | cut -d' ' -f1)
  if ((!force)) && si_image_exists "$image" &&
    [[ $(si_image_label "$image" dev.workcell.celld-sha256) == "$celld_sha" &&
      $(si_image_label "$image" dev.workcell.recipe-sha256) == "$recipe" ]]; then
    si_step_done "sandbox image up to date"
    de_say "sandbox image $image ready ($((SECONDS - started)) s)"
    SI_SANDBOX_READY=$image
    return 0
  fi
  local ctx old_id
  old_id=$(si_image_id "$image" || true)
  ctx=$(si_make_context sandbox)
  cp "$dockerfile" "$ctx/Dockerfile"
  install -m 0555 "$celld" "$ctx/celld"
  de_info "docker build (classic builder; output in the log)"
  si_docker_build "$log" "$image" "$ctx" "$force" \
    --build-arg "BASE=$base" \
    --label "dev.workcell.celld-sha256=$celld_sha" \
    --label "dev.workcell.recipe-sha256=$recipe" || return
  rm -rf "$ctx"
  si_drop_superseded "$image" "$old_id"
  si_step_done "built $(si_image_size "$image")"

  si_step 4 4 "smoke check"
  si_smoke_check "$image" || return
  si_step_done "ok"
  de_say "sandbox image $image ready ($((SECONDS - started)) s)"
  SI_SANDBOX_READY=$image
}

# The image a rebuild replaced, now untagged; kept (silently) while a container or child image uses it.
si_drop_superseded() {
  local image=$1 old_id=$2
  [[ -n $old_id && $old_id != "$(si_image_id "$image")" ]] || return 0
  docker image rm "$old_id" >/dev/null 2>&1 || true
}

si_image_size() {
  local bytes
  bytes=$(docker image inspect -f '{{.Size}}' "$1" 2>/dev/null) || return 0
  printf '%s MB\n' "$((bytes / 1000000))"
}

# The image must run as 1000:1000 in /workspace with celld executable at /usr/local/bin: sandbox-service
# fills every sandbox's read-only celld volume from there (Docker's copy-up).
si_smoke_check() {
  local out want="1000:1000 /workspace 555"
  out=$(docker run --rm --network none --read-only "$1" \
    sh -c 'printf "%s:%s %s %s" "$(id -u)" "$(id -g)" "$(pwd)" "$(stat -c %a /usr/local/bin/celld)"' 2>&1) || {
    de_err "smoke check of $1 failed: $out"
    return 1
  }
  if [[ $out != "$want" ]]; then
    de_err "smoke check of $1: expected '$want', got '$out'"
    return 1
  fi
}

# The office/data image: built only on request, on top of the sandbox image.
build_office_image() {
  local force=0 arg
  for arg in "$@"; do
    case $arg in
      --force) force=1 ;;
      *) de_err "build_office_image: unknown option $arg"; return 2 ;;
    esac
  done
  local image sandbox log dockerfile recipe started=$SECONDS
  image=$(si_office_image)
  sandbox=$(si_sandbox_image)
  if [[ ${SI_SANDBOX_READY:-} != "$sandbox" ]]; then
    # shellcheck disable=SC2119 # the office image takes the sandbox image as it is
    ensure_sandbox_image || return
  fi
  log=$(si_log)
  dockerfile="$SI_ROOT/docker/sandbox/office/Dockerfile"
  recipe=$({ cat "$dockerfile"; si_image_id "$sandbox"; } | sha256sum | cut -d' ' -f1)
  de_say "office image $image (log: $log)"
  si_step 1 1 "office image on $sandbox"
  if ((!force)) && si_image_exists "$image" &&
    [[ $(si_image_label "$image" dev.workcell.recipe-sha256) == "$recipe" ]]; then
    si_step_done "office image up to date"
    return 0
  fi
  local ctx old_id
  old_id=$(si_image_id "$image" || true)
  ctx=$(si_make_context office)
  cp "$dockerfile" "$ctx/Dockerfile"
  de_info "docker build (classic builder; output in the log)"
  si_docker_build "$log" "$image" "$ctx" "$force" \
    --build-arg "SANDBOX=$sandbox" \
    --label "dev.workcell.recipe-sha256=$recipe" || return
  rm -rf "$ctx"
  si_drop_superseded "$image" "$old_id"
  si_step_done "built $(si_image_size "$image")"
  de_say "office image $image ready ($((SECONDS - started)) s)"
}
