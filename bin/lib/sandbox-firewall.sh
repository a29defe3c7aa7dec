# shellcheck shell=bash
# The closed sandbox network (docs/decisions/0008-closed-sandbox-network.md): sandboxes on Workcell's
# managed bridges (host interfaces wcsbx-*, named by sandbox-service) reach neither the host nor
# private, link-local, loopback or unique-local addresses, only the public internet. Sourced;
# defines functions only. Needs root; idempotent (our chains are flushed and refilled, our jumps
# found by their comment and replaced). The interface pattern matches bridges that do not exist yet,
# so the rules may go in before sandbox-service creates its network.
# The egress networks of allowlisted sandboxes (host interfaces wcsbe-*, internal: no route out;
# docs/decisions/0012-egress-allowlist.md) reach the host on the egress proxy's port only and
# forward nothing.
#
# Public:   ensure_sandbox_firewall, remove_sandbox_firewall
# Reads:    WORK_RUNTIME_DNS (private resolvers sandboxes may still ask), /etc/resolv.conf,
#           WORKCELL_SANDBOX_EGRESS_PROXY_PORT (sandbox-service's workcell.sandbox.egress.proxy-port, 13128)
# Uses:     de_apt_install, de_say, de_info, de_err (docker-engine.sh)

SF_IFACE='wcsbx+'
SF_TAG=workcell-sandbox-firewall
SF_IN=WORKCELL-SBX-IN
SF_OUT=WORKCELL-SBX-OUT
SF_EGRESS_IFACE='wcsbe+'
SF_EGRESS_IN=WORKCELL-SBE-IN
SF_EGRESS_OUT=WORKCELL-SBE-OUT
SF_PRIVATE4=(10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 100.64.0.0/10 169.254.0.0/16 127.0.0.0/8 0.0.0.0/8 224.0.0.0/4 240.0.0.0/4)
SF_PRIVATE6=(fc00::/7 fe80::/10 ::1/128 ::/128 ::ffff:0:0/96 64:ff9b::/96 ff00::/8)

# The resolvers Docker's embedded DNS forwards to, when they sit in a blocked range (often the
# cloud's, e.g. 10.x or 169.254.169.254): only port 53 of exactly these stays open.
sf_resolvers() { # sf_resolvers 4|6
  local family=$1 file
  {
    for file in /etc/resolv.conf /run/systemd/resolve/resolv.conf; do
      [[ -r $file ]] && sed -n 's/^[[:space:]]*nameserver[[:space:]]\+\([^[:space:]]\+\).*/\1/p' "$file"
    done
    tr ',' '\n' <<<"${WORK_RUNTIME_DNS:-}"
  } | sed 's/[[:space:]]//g' | while read -r ns; do
    [[ -n $ns ]] || continue
    if [[ $family == 4 && $ns =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ && ! $ns =~ ^127\. ]]; then echo "$ns"; fi
    if [[ $family == 6 && $ns == *:* && $ns != ::1 ]]; then echo "${ns%%%*}"; fi
  done | sort -u
}

# sf_fill TOOL FAMILY — our two chains, from scratch.
sf_fill() {
  local tool=$1 family=$2 chain range ns proto
  for chain in "$SF_IN" "$SF_OUT"; do
    "$tool" -w -N "$chain" 2>/dev/null || true
    "$tool" -w -F "$chain"
  done
  # To the host: replies to what the host opened (a preview's proxied connection) and nothing else.
  "$tool" -w -A "$SF_IN" -m conntrack --ctstate ESTABLISHED,RELATED -m comment --comment "$SF_TAG" -j RETURN
  "$tool" -w -A "$SF_IN" -m comment --comment "$SF_TAG" -j DROP
  # Through the host: replies, the resolvers' port 53, then no private, link-local or loopback range.
  "$tool" -w -A "$SF_OUT" -m conntrack --ctstate ESTABLISHED,RELATED -m comment --comment "$SF_TAG" -j RETURN
  while read -r ns; do
    [[ -n $ns ]] || continue
    for proto in udp tcp; do
      "$tool" -w -A "$SF_OUT" -d "$ns" -p "$proto" --dport 53 -m comment --comment "$SF_TAG resolver" -j RETURN
    done
  done < <(sf_resolvers "$family")
  local -n ranges="SF_PRIVATE$family"
  for range in "${ranges[@]}"; do
    "$tool" -w -A "$SF_OUT" -d "$range" -m comment --comment "$SF_TAG" -j DROP
  done
  sf_fill_egress "$tool"
}

# sf_fill_egress TOOL — the egress networks: to the host, replies and new connections to the egress
# proxy's port only; through the host, nothing new (their network is internal as well).
sf_fill_egress() {
  local tool=$1 chain port=${WORKCELL_SANDBOX_EGRESS_PROXY_PORT:-13128}
  for chain in "$SF_EGRESS_IN" "$SF_EGRESS_OUT"; do
    "$tool" -w -N "$chain" 2>/dev/null || true
    "$tool" -w -F "$chain"
  done
  "$tool" -w -A "$SF_EGRESS_IN" -m conntrack --ctstate ESTABLISHED,RELATED -m comment --comment "$SF_TAG" -j RETURN
  "$tool" -w -A "$SF_EGRESS_IN" -p tcp --dport "$port" -m conntrack --ctstate NEW -m comment --comment "$SF_TAG egress proxy" -j ACCEPT
  "$tool" -w -A "$SF_EGRESS_IN" -m comment --comment "$SF_TAG" -j DROP
  "$tool" -w -A "$SF_EGRESS_OUT" -m conntrack --ctstate ESTABLISHED,RELATED -m comment --comment "$SF_TAG" -j RETURN
  "$tool" -w -A "$SF_EGRESS_OUT" -m comment --comment "$SF_TAG" -j DROP
}

# sf_unhook TOOL — removes every jump of ours (found by comment) from INPUT, FORWARD and DOCKER-USER.
sf_unhook() {
  local tool=$1 chain rule
  for chain in INPUT FORWARD DOCKER-USER; do
    "$tool" -w -S "$chain" 2>/dev/null | grep -F -- "--comment $SF_TAG" | grep -E -- "-j ($SF_IN|$SF_OUT|$SF_EGRESS_IN|$SF_EGRESS_OUT)\$" |
      while read -r rule; do
        # shellcheck disable=SC2086 # the rule's words, as iptables printed them
        eval "$tool -w ${rule/-A /-D }"
      done || true # no jump of ours yet: grep finds nothing (and the launcher runs with pipefail)
  done
}

# sf_hook TOOL — our chains first: INPUT for the host, DOCKER-USER (Docker keeps it ahead of its own
# FORWARD rules) or FORWARD itself where Docker manages no chain (ip6tables, --iptables=false).
sf_hook() {
  local tool=$1 forward=FORWARD
  "$tool" -w -S DOCKER-USER >/dev/null 2>&1 && forward=DOCKER-USER
  "$tool" -w -I INPUT 1 -i "$SF_IFACE" -m comment --comment "$SF_TAG" -j "$SF_IN"
  "$tool" -w -I "$forward" 1 -i "$SF_IFACE" -m comment --comment "$SF_TAG" -j "$SF_OUT"
  "$tool" -w -I INPUT 1 -i "$SF_EGRESS_IFACE" -m comment --comment "$SF_TAG" -j "$SF_EGRESS_IN"
  "$tool" -w -I "$forward" 1 -i "$SF_EGRESS_IFACE" -m comment --comment "$SF_TAG" -j "$SF_EGRESS_OUT"
}

sf_tool_usable() { "$1" -w -S INPUT >/dev/null 2>&1; }

ensure_sandbox_firewall() {
  if ((EUID != 0)); then
    de_err "the sandbox firewall needs root (iptables); sandbox-service refuses network-enabled sandboxes without it"
    return 1
  fi
  if ! command -v iptables >/dev/null 2>&1 && [[ ! -x /usr/sbin/iptables ]]; then
    de_apt_install iptables || return
    hash -r
  fi
  local tool family installed=()
  if [[ ! ${WORKCELL_SANDBOX_EGRESS_PROXY_PORT:-13128} =~ ^[0-9]{1,5}$ ]] || ((${WORKCELL_SANDBOX_EGRESS_PROXY_PORT:-13128} > 65535)); then
    de_err "WORKCELL_SANDBOX_EGRESS_PROXY_PORT must be a port number, not '$WORKCELL_SANDBOX_EGRESS_PROXY_PORT'"
    return 1
  fi
  for family in 4 6; do
    tool=iptables
    [[ $family == 6 ]] && tool=ip6tables
    if ! sf_tool_usable "$tool"; then
      [[ $family == 4 ]] && { de_err "iptables does not work here: sandboxes cannot be closed off"; return 1; }
      de_info "ip6tables does not work here: IPv6 rules skipped (sandbox networks are IPv4-only)"
      continue
    fi
    sf_unhook "$tool"
    sf_fill "$tool" "$family"
    sf_hook "$tool"
    installed+=("$tool")
  done
  de_say "sandbox firewall: $SF_IFACE closed to the host and private ranges, $SF_EGRESS_IFACE to all but the egress proxy's port ${WORKCELL_SANDBOX_EGRESS_PROXY_PORT:-13128} (${installed[*]})"
}

# Not called by 'bin/workcell down': the rules only ever block, and other stacks on the same engine
# (the test stack, a second checkout) rely on them. For an operator who removes Workcell.
remove_sandbox_firewall() {
  local tool chain
  for tool in iptables ip6tables; do
    sf_tool_usable "$tool" || continue
    sf_unhook "$tool"
    for chain in "$SF_IN" "$SF_OUT" "$SF_EGRESS_IN" "$SF_EGRESS_OUT"; do
      "$tool" -w -F "$chain" 2>/dev/null || true
      "$tool" -w -X "$chain" 2>/dev/null || true
    done
  done
}
