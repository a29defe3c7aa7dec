#!/bin/sh
# Builds the static celld binary (standard library only; never touches the network).
# OUT overrides the output path (default ../build/celld); GOARCH may be set for arm64 images.
set -eu
cd "$(dirname "$0")"
OUT="${OUT:-../build/celld}"
mkdir -p "$(dirname "$OUT")"
export CGO_ENABLED=0 GOTOOLCHAIN=local GOPROXY=off
go build -trimpath -buildvcs=false -ldflags='-s -w' -o "$OUT" .
if command -v file >/dev/null 2>&1; then
  file "$OUT"
  file "$OUT" | grep -q 'statically linked' || { echo "celld is not statically linked" >&2; exit 1; }
fi
