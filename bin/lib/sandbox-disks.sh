# shellcheck shell=bash
# Bounded workspaces (docs/decisions/0010-bounded-disks.md): sandbox-service gives every workspace and
# home volume an ext4 image of its own under the disk root, loop-mounted by a short-lived helper
# container whose bind of the root has rshared propagation, so those mounts reach the host where
# dockerd binds them. Docker accepts rshared only on a shared mount: this makes the root one (a bind
# mount of itself, --make-rshared). Sourced; defines functions only. Needs root; idempotent. Lasts
# until the next reboot (bin/workcell up runs it again; sandbox-service re-mounts the disks then).
#
# Public:   ensure_sandbox_disk_root, remove_sandbox_disks INSTANCE
# Reads:    WORKCELL_SANDBOX_DISK_ROOT (sandbox-service's workcell.sandbox.disk.root; default below)
# Uses:     de_say, de_info, de_err (docker-engine.sh)

SD_DEFAULT_ROOT=/var/lib/workcell/disks

sd_root() { printf '%s\n' "${WORKCELL_SANDBOX_DISK_ROOT:-$SD_DEFAULT_ROOT}"; }

# Whether DIR is a mount point whose propagation is shared (mountinfo's optional "shared:N" field).
sd_is_shared_mount() {
  awk -v dir="$1" '$5 == dir { for (i = 7; $i != "-"; i++) if ($i ~ /^shared:/) found = 1 } END { exit !found }' /proc/self/mountinfo
}

ensure_sandbox_disk_root() {
  local root
  root=$(sd_root)
  if ((EUID != 0)); then
    de_err "the disk root $root needs root to become a shared mount; sandboxes cannot get bounded disks without it"
    return 1
  fi
  # .read-only: the read-only clones of the disks that compose's sandbox-mirror binds (decision 0021).
  mkdir -p "$root/.read-only" && chmod 0711 "$root" || return
  if ! sd_is_shared_mount "$root"; then
    if ! mountpoint -q "$root"; then
      mount --bind "$root" "$root" || { de_err "cannot bind-mount $root onto itself"; return 1; }
    fi
    mount --make-rshared "$root" || { de_err "cannot make $root a shared mount"; return 1; }
  fi
  if ! [[ -e /dev/loop-control ]]; then
    de_err "no /dev/loop-control: the kernel has no loop devices, so sandboxes cannot get bounded disks"
    return 1
  fi
  de_say "sandbox disks: $root is a shared mount ($(ls -d "$root"/*/*/ 2>/dev/null | wc -l) disks)"
}

# Unmounts DIR/*/mnt and removes each DIR/*, then DIR itself if empty.
sd_unmount_all() {
  local dir
  for dir in "$1"/*/; do
    [[ -d $dir ]] || continue
    dir=${dir%/}
    if mountpoint -q "$dir/mnt"; then
      umount "$dir/mnt" || { de_err "cannot unmount $dir/mnt"; continue; }
    fi
    rm -rf --one-file-system "$dir"
  done
  rmdir "$1" 2>/dev/null || true
}

# The disks of one sandbox-service instance, after its volumes were removed by hand (a compose
# teardown): unmount each, its read-only clone first (its loop device detaches), and delete its image.
remove_sandbox_disks() {
  sd_unmount_all "$(sd_root)/.read-only/${1:?instance}"
  sd_unmount_all "$(sd_root)/$1"
}
