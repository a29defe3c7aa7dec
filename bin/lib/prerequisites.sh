# shellcheck shell=bash
# Installs what the stack needs on Debian/Ubuntu, idempotently. Sourced; defines functions only.
# Uses de_apt_install from docker-engine.sh (one apt-get update per shell).

# wc_java_home — a JDK >= 21: JAVA_HOME if it qualifies, the distribution's, else one under /usr/lib/jvm.
wc_java_home() {
  local candidate version
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [[ -n $candidate && -x $candidate/bin/javac ]] || continue
    version=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [[ $version =~ ^[0-9]+$ ]] && ((version >= 21)); then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  return 1
}

wc_ensure_java() {
  if ! wc_java_home >/dev/null; then
    local pkg
    for pkg in openjdk-25-jdk-headless openjdk-21-jdk-headless; do
      if apt-cache policy "$pkg" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
        de_apt_install "$pkg" && break
      fi
    done
  fi
  JAVA_HOME=$(wc_java_home) || wc_die "no JDK >= 21 found: install one (Debian: openjdk-21-jdk-headless) or set JAVA_HOME"
  export JAVA_HOME
}

# wc_ensure_packages — every host tool up/test use; installs only what is missing.
wc_ensure_packages() {
  local missing=() cmd pkg
  local -A need=(
    [pg_ctlcluster]=postgresql [nats-server]=nats-server [go]=golang-go [debootstrap]=debootstrap
    [openssl]=openssl [curl]=curl [dockerd]=docker.io [setsid]=util-linux [mvn]=maven [iptables]=iptables
  )
  for cmd in "${!need[@]}"; do
    command -v "$cmd" >/dev/null 2>&1 || [[ -x /usr/sbin/$cmd ]] || missing+=("${need[$cmd]}")
  done
  [[ -x /usr/lib/postgresql/15/bin/initdb || -n $(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null) ]] || missing+=(postgresql)
  if ((${#missing[@]})); then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    wc_info "installing ${missing[*]}"
    de_apt_install "${missing[@]}"
  fi
  wc_ensure_java
}
