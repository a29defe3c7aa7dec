# Workspace disks (docs/decisions/0010-bounded-disks.md): one ext4 image per volume, loop-mounted.
# Run by sandbox-service in a short-lived helper container (root, CAP_SYS_ADMIN/MKNOD/CHOWN, the loop
# devices only) that mounts the host's disk root at /disks with rshared propagation, so the
# mounts made here appear on the host, where dockerd binds <volume>/mnt/data into the sandbox.
# Layout: /disks/<instance>/<volume>/{disk.img,mnt/}; the workspace is mnt/data, which exists
# only while the image is mounted: an unmounted disk makes the bind fail, never writes the host's disk.
# Usage: sh -c "$script" disk ensure|mount|remove|clear INSTANCE [VOLUME [SIZE_BYTES]]...
set -eu

op=$1
instance=$2
shift 2
base=/disks/$instance

valid_name() {
  case $1 in
    '' | . | .. | */* | -*) echo "bad volume name: $1" >&2; return 1 ;;
  esac
}

# Attaches the image to a free loop device and mounts it (autoclear: the device detaches once the
# last mount of the filesystem, the sandbox's bind included, is gone). A helper's /dev has no loopN
# nodes, so the one the kernel offers is made here; a concurrent helper may take it first: retry.
attach() { # attach IMAGE DIR
  tries=0
  while :; do
    dev=$(losetup -f)
    [ -b "$dev" ] || mknod "$dev" b 7 "${dev#/dev/loop}"
    if err=$(mount -t ext4 -o "loop=$dev,nosuid,nodev" "$1" "$2" 2>&1); then
      return 0
    fi
    tries=$((tries + 1))
    if [ "$tries" -ge 8 ]; then
      echo "cannot mount $1: $err" >&2
      return 1
    fi
    sleep 0.25
  done
}

# Prints "<block size> <blocks> <free blocks>" of a mounted disk.
report() {
  stat -f -c '%S %b %f' "$1"
}

case $op in
  ensure)
    name=$1
    size=$2
    valid_name "$name"
    case $size in '' | *[!0-9]*) echo "bad size: $size" >&2; exit 1 ;; esac
    dir=$base/$name
    mkdir -p "$dir/mnt"
    if ! mountpoint -q "$dir/mnt"; then
      if [ ! -f "$dir/disk.img" ]; then
        rm -f "$dir/disk.img.new"
        truncate -s "$size" "$dir/disk.img.new"
        # -m 0: no blocks reserved for root (nobody is root in a sandbox); lazy init keeps it sparse and fast.
        mkfs.ext4 -q -F -m 0 -L workcell -E lazy_itable_init=1,lazy_journal_init=1,nodiscard "$dir/disk.img.new"
        mv "$dir/disk.img.new" "$dir/disk.img"
        echo "created $name"
      fi
      attach "$dir/disk.img" "$dir/mnt"
    fi
    # Only ever inside the mounted filesystem (checked above), so never on the host's own disk.
    mountpoint -q "$dir/mnt"
    if [ ! -d "$dir/mnt/data" ]; then
      mkdir "$dir/mnt/data"
      chown 1000:1000 "$dir/mnt/data"
    fi
    echo "ready $name $(report "$dir/mnt")"
    ;;
  mount)
    # Re-mounts existing disks (after a reboot); never creates one. One failure does not stop the rest.
    status=0
    for name in "$@"; do
      valid_name "$name" || { status=1; continue; }
      dir=$base/$name
      if [ ! -f "$dir/disk.img" ]; then
        echo "missing $name"
        continue
      fi
      mkdir -p "$dir/mnt"
      if mountpoint -q "$dir/mnt"; then
        echo "ready $name"
      elif attach "$dir/disk.img" "$dir/mnt"; then
        echo "mounted $name"
      else
        echo "failed $name"
        status=1
      fi
    done
    exit "$status"
    ;;
  remove)
    name=$1
    valid_name "$name"
    dir=$base/$name
    [ -d "$dir" ] || exit 0
    if mountpoint -q "$dir/mnt"; then
      umount "$dir/mnt"
    fi
    if mountpoint -q "$dir/mnt"; then
      echo "$dir/mnt is still mounted" >&2
      exit 1
    fi
    rm -rf --one-file-system "$dir"
    echo "removed $name"
    ;;
  clear)
    # Every disk of the instance (tests' cleanup).
    [ -d "$base" ] || exit 0
    for dir in "$base"/*/; do
      [ -d "$dir" ] || continue
      dir=${dir%/}
      if mountpoint -q "$dir/mnt"; then
        umount "$dir/mnt"
      fi
      rm -rf --one-file-system "$dir"
    done
    ;;
  *)
    echo "unknown operation $op" >&2
    exit 2
    ;;
esac
