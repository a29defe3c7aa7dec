# shellcheck shell=bash
# Open Terminal direct connections on a real stack (issue 17): OpenWebUI's user-configured terminals
# call the API from the browser with only the key, so single-user mode and CORS are switched on for
# the gateway, checked through real HTTP, then switched off again and the default ("refuse", no CORS
# headers) checked too. Sourced after bin/lib/test.sh; defines functions only.
#
#   wt_direct_connection_checks URL KEY STATE STACK...
#       URL: the stack's gateway base; KEY: its terminal server key; STATE: its state folder;
#       STACK: the command that drives it. The gateway is restarted twice and left as it was.

WT_DC_ORIGIN=https://chat.example.test

wt_direct_connection_checks() {
  local url=${1%/}/api/open-terminal work=${1%/}/api/work key=$2 state=$3 user
  shift 3
  user="direct-$$-$RANDOM"
  WT_DC_HEADERS=$(mktemp)

  wt_check "direct connection: the gateway restarts with WORKCELL_TERMINAL_SINGLE_USER_ID and WORKCELL_TERMINAL_CORS_ORIGINS" \
    wt_dc_restart_gateway "$state" env WORKCELL_TERMINAL_SINGLE_USER_ID="$user" WORKCELL_TERMINAL_CORS_ORIGINS="$WT_DC_ORIGIN" "$@"
  wt_check "direct connection: a write with only the key lands in the single user's home" \
    wt_dc_write_lands_with_user "$url" "$key" "$user"
  wt_check "direct connection: a request naming another user still gets that user's home" \
    wt_dc_named_user_isolated "$url" "$key"
  wt_check "direct connection: a preflight from the configured origin is answered without the key" \
    wt_dc_preflight_allowed "$url"
  wt_check "direct connection: answers to the configured origin carry its CORS headers and expose Content-Disposition" \
    wt_dc_answer_allowed "$url" "$key"
  wt_check "direct connection: another origin gets no CORS headers, and neither does the Work API" \
    wt_dc_others_closed "$url" "$key" "$work"
  wt_check "direct connection: the gateway restarts with neither setting" wt_dc_restart_gateway "$state" "$@"
  wt_check "direct connection: by default a request without X-User-Id is refused (400) and a preflight gets no CORS headers" \
    wt_dc_default_refuses "$url" "$key"
  rm -f "$WT_DC_HEADERS"
}

wt_dc_restart_gateway() {
  local state=$1
  shift
  wc_stop_service gateway-service "$state/run"
  "$@" up >/dev/null
}

# wt_dc_status METHOD URL [CURL ARGS...] — prints the HTTP status; headers go to $WT_DC_HEADERS.
wt_dc_status() {
  local method=$1 target=$2
  shift 2
  : >"$WT_DC_HEADERS"
  curl -s -o /dev/null -D "$WT_DC_HEADERS" -w '%{http_code}' -X "$method" "$@" "$target"
}

wt_dc_header() { grep -i "^$1:" "$WT_DC_HEADERS" | head -n 1 | cut -d: -f2- | tr -d '\r' | sed 's/^ *//'; }

wt_dc_write_lands_with_user() {
  local url=$1 key=$2 user=$3 body
  curl -sf -X POST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    -d '{"path":"direct.txt","content":"from the browser"}' "$url/files/write" >/dev/null || return 1
  body=$(curl -sf -H "Authorization: Bearer $key" -H "X-User-Id: $user" "$url/files/read?path=direct.txt") || return 1
  echo "$body"
  grep -q 'from the browser' <<<"$body"
}

wt_dc_named_user_isolated() {
  local url=$1 key=$2 status
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" -H "X-User-Id: other-$$-$RANDOM" \
    "$url/files/read?path=direct.txt")
  echo "another user's read of direct.txt: $status"
  [[ $status == 404 ]]
}

wt_dc_preflight_allowed() {
  local url=$1 status
  status=$(wt_dc_status OPTIONS "$url/files/list" -H "Origin: $WT_DC_ORIGIN" \
    -H 'Access-Control-Request-Method: GET' -H 'Access-Control-Request-Headers: authorization')
  cat "$WT_DC_HEADERS"
  [[ $status == 2* && $(wt_dc_header Access-Control-Allow-Origin) == "$WT_DC_ORIGIN" ]] &&
    wt_dc_header Access-Control-Allow-Headers | grep -qi authorization &&
    wt_dc_header Access-Control-Allow-Methods | grep -q GET
}

wt_dc_answer_allowed() {
  local url=$1 key=$2 status
  status=$(wt_dc_status GET "$url/files/view?path=direct.txt" -H "Authorization: Bearer $key" -H "Origin: $WT_DC_ORIGIN")
  cat "$WT_DC_HEADERS"
  [[ $status == 200 && $(wt_dc_header Access-Control-Allow-Origin) == "$WT_DC_ORIGIN" ]] &&
    wt_dc_header Access-Control-Expose-Headers | grep -q Content-Disposition
}

wt_dc_others_closed() {
  local url=$1 key=$2 work=$3
  wt_dc_status GET "$url/files/list" -H "Authorization: Bearer $key" -H 'Origin: https://elsewhere.example.test' >/dev/null
  [[ -z $(wt_dc_header Access-Control-Allow-Origin) ]] || { echo "another origin got CORS headers"; return 1; }
  wt_dc_status OPTIONS "$work/tasks" -H "Origin: $WT_DC_ORIGIN" -H 'Access-Control-Request-Method: GET' >/dev/null
  [[ -z $(wt_dc_header Access-Control-Allow-Origin) ]] || { echo "the Work API answered a preflight"; return 1; }
}

wt_dc_default_refuses() {
  local url=$1 key=$2 status
  status=$(wt_dc_status GET "$url/files/list" -H "Authorization: Bearer $key")
  echo "without X-User-Id: $status"
  [[ $status == 400 ]] || return 1
  wt_dc_status OPTIONS "$url/files/list" -H "Origin: $WT_DC_ORIGIN" -H 'Access-Control-Request-Method: GET' >/dev/null
  [[ -z $(wt_dc_header Access-Control-Allow-Origin) ]]
}
