# Workspace disks (docs/decisions/0010-bounded-disks.md): one ext4 image per volume, loop-mounted.
# Run by sandbox-service in a short-lived helper container (root, CAP_SYS_ADMIN/MKNOD/CHOWN, the loop
# devices only) that mounts the host's disk root at /disks with rshared propagation, so the
# mounts made here appear on the host, where dockerd binds <volume>/mnt/data into the sandbox.
# Layout: /disks/<instance>/<volume>/{disk.img,mnt/}; the workspace is mnt/data, which exists
# only while the image is mounted: an unmounted disk makes the bind fail, never writes the host's disk.
# With --read-only-view, ensure and mount also attach a read-only clone of each disk's mnt at
# /disks/.read-only/<instance>/<volume>/mnt (decision 0021): a reader bound to /disks/.read-only
# (compose's sandbox-mirror) gets disks mounted after it started read-only, which a read-only bind of
# the disk root cannot give (a later mount propagates with its own, writable, flags). remove and clear
# always take the clone away first: it holds the filesystem (and its loop device) otherwise.
# Usage: sh -c "$script" disk [--read-only-view] ensure|mount|remove|clear INSTANCE [VOLUME [SIZE_BYTES]]...
set -eu

read_only_view=
if [ "$1" = --read-only-view ]; then
  read_only_view=1
  shift
fi
op=$1
instance=$2
shift 2
base=/disks/$instance
view=/disks/.read-only/$instance

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

# Attaches a read-only clone of the mounted disk NAME under the view, once: open_tree makes a detached
# copy, mount_setattr makes it read-only while nobody can reach it yet, move_mount attaches it, so it
# propagates (to the host, to sandbox-mirror's rslave bind) already read-only. util-linux's
# `mount --bind -o ro` cannot: it binds, the bind propagates writable, then it remounts. Kernel >= 5.12.
view_attach() { # view_attach NAME
  [ -n "$read_only_view" ] || return 0
  mkdir -p "$view/$1/mnt"
  mountpoint -q "$view/$1/mnt" && return 0
  python3 - "$base/$1/mnt" "$view/$1/mnt" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
# The numbers of the three calls are the same on every architecture (they came after 5.0's unification).
OPEN_TREE, MOVE_MOUNT, MOUNT_SETATTR = 428, 429, 442
AT_FDCWD, AT_EMPTY_PATH, AT_RECURSIVE = -100, 0x1000, 0x8000
OPEN_TREE_CLONE, OPEN_TREE_CLOEXEC, MOVE_MOUNT_F_EMPTY_PATH = 1, 0o2000000, 4
RDONLY, NOSUID, NODEV, NOEXEC = 0x1, 0x2, 0x4, 0x8
class MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]
def call(what, *args):
    r = libc.syscall(*args)
    if r < 0:
        sys.exit("%s %s: %s" % (what, sys.argv[1], os.strerror(ctypes.get_errno())))
    return r
tree = call("open_tree", OPEN_TREE, AT_FDCWD, sys.argv[1].encode(), OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE)
attr = MountAttr(RDONLY | NOSUID | NODEV | NOEXEC, 0, 0, 0)
call("mount_setattr", MOUNT_SETATTR, tree, b"", AT_EMPTY_PATH | AT_RECURSIVE, ctypes.byref(attr), ctypes.sizeof(attr))
call("move_mount", MOVE_MOUNT, tree, b"", AT_FDCWD, sys.argv[2].encode(), MOVE_MOUNT_F_EMPTY_PATH)
PY
}

# Detaches the read-only clone of NAME and removes its folder under the view (whatever the option).
view_remove() { # view_remove NAME
  [ -d "$view/$1" ] || return 0
  if mountpoint -q "$view/$1/mnt"; then
    umount "$view/$1/mnt"
  fi
  rm -rf --one-file-system "$view/$1"
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
    view_attach "$name"
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
        continue
      fi
      view_attach "$name" || { echo "failed $name (read-only view)"; status=1; }
    done
    exit "$status"
    ;;
  remove)
    name=$1
    valid_name "$name"
    dir=$base/$name
    view_remove "$name"
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
    for dir in "$view"/*/; do
      [ -d "$dir" ] || continue
      dir=${dir%/}
      view_remove "${dir##*/}"
    done
    rmdir "$view" 2>/dev/null || true
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
