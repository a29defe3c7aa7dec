# shellcheck shell=bash
# Container images of Workcell without a registry: a Java runtime image (the project's Debian base +
# a jlink'd JRE) and one image per service and the CLI from the Maven build (target/quarkus-app),
# plus the images docker/compose.yaml needs at first start. Sourced; defines functions only.
#
# Public:  build_images [--infra], img_version, img_service_image SERVICE, build_infra_images
# Reads:   WORKCELL_IMAGE_BASE  base image (default: workcell/base:<codename> from sandbox-image.sh;
#                               elsewhere e.g. debian:bookworm-slim)
#          WORKCELL_JLINK_JDK   JDK whose jlink makes the runtime (default JAVA_HOME)
# Writes:  $WORKCELL_STATE/logs/images.log, $WORKCELL_STATE/cache/jre-<hash>/

# Modules the services use (jdeps over every jar of the eight apps, plus what they load reflectively:
# java.rmi for Narayana (task-service), java.desktop for java.beans (Hibernate, Quarkus core), jdk.management for Micrometer's process
# metrics, java.security.jgss/sasl for the PostgreSQL driver, jdk.crypto.ec and jdk.naming.dns for
# TLS and DNS of model providers, java.net.http for provider clients, jdk.net for sandbox-mirror's Apache
# HttpClient 5, which sets socket options through jdk.net.Sockets).
IMG_JRE_MODULES=java.base,java.rmi,java.logging,java.naming,java.sql,java.transaction.xa,java.xml,java.management,jdk.management,java.desktop,java.security.jgss,java.security.sasl,jdk.unsupported,java.net.http,jdk.crypto.ec,jdk.naming.dns,jdk.zipfs,jdk.net

IMG_MODULES=(gateway-service task-service agent-runner-service sandbox-service preview-proxy-service terminal-service sandbox-mirror cli)

img_log() { printf '%s\n' "$WC_LOGS/images.log"; }

# The Maven project version (the first <version> of the root pom is the project's own).
img_version() {
  sed -n '/<artifactId>/,/<version>/{s/.*<version>\(.*\)<\/version>.*/\1/p}' "$ROOT/pom.xml" | head -n 1
}

# The commit the images come from; "-dirty" when the module (or a shared module) differs from it.
img_revision() {
  local rev
  rev=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null) || { echo unknown; return; }
  git -C "$ROOT" diff --quiet HEAD -- "$@" 2>/dev/null || rev+=-dirty
  printf '%s\n' "$rev"
}

img_service_image() { printf 'workcell/%s:%s\n' "$1" "$(img_version)"; }
img_runtime_image() { printf 'workcell/java-runtime:%s\n' "$(img_version)"; }

img_size() { docker image inspect -f '{{.Size}}' "$1" 2>/dev/null | awk '{ printf "%d MB", $1 / 1000000 }'; }

# img_build IMAGE CONTEXT DOCKERFILE [build args...] — the classic builder, output in the log.
img_build() {
  local image=$1 ctx=$2 dockerfile=$3 old_id
  shift 3
  old_id=$(si_image_id "$image" || true)
  DOCKER_BUILDKIT=0 de_run_logged "$(img_log)" docker build --network host -f "$dockerfile" --tag "$image" "$@" "$ctx" || return
  si_drop_superseded "$image" "$old_id"
}

# The base image: WORKCELL_IMAGE_BASE, or the debootstrapped one the sandbox image uses.
img_base() {
  if [[ -n ${WORKCELL_IMAGE_BASE:-} ]]; then
    printf '%s\n' "$WORKCELL_IMAGE_BASE"
  else
    si_ensure_base_image 0
  fi
}

# Prints a directory holding the jlink'd runtime, made once per JDK and module list.
img_jre() {
  local jdk=${WORKCELL_JLINK_JDK:-$JAVA_HOME} key dir
  # The key covers the JDK, the modules and the recipe below (this function's text).
  key=$({ "$jdk/bin/java" -version 2>&1; echo "$IMG_JRE_MODULES"; declare -f img_jre; } | sha256sum | cut -c1-16)
  dir=$WC_STATE/cache/jre-$key
  if [[ ! -x $dir/bin/java ]]; then
    rm -rf "$dir.tmp"
    mkdir -p "$WC_STATE/cache"
    de_run_logged "$(img_log)" "$jdk/bin/jlink" --add-modules "$IMG_JRE_MODULES" --output "$dir.tmp" \
      --strip-debug --no-header-files --no-man-pages --compress=zip-6 || return
    # Without symbols the native libraries are 6 MB smaller. No default CDS archive (14 MB, some
    # 0.3 s of start): with it the largest image (task-service) passes the 200 MB goal.
    if command -v strip >/dev/null 2>&1; then
      strip -p --strip-unneeded "$dir.tmp"/lib/server/libjvm.so "$dir.tmp"/lib/*.so || return
    fi
    mv "$dir.tmp" "$dir"
  fi
  printf '%s\n' "$dir"
}

# The runtime image, rebuilt only when its recipe (base id, JRE, Dockerfile, scripts) changed.
img_runtime() {
  local base=$1 jre=$2 image recipe ctx
  image=$(img_runtime_image)
  recipe=$({ si_image_id "$base"; basename "$jre"; cat "$ROOT"/docker/java/*; } | sha256sum | cut -c1-64)
  if si_image_exists "$image" && [[ $(si_image_label "$image" dev.workcell.recipe-sha256) == "$recipe" ]]; then
    return 0
  fi
  ctx=$(si_make_context java-runtime)
  cp -a "$jre" "$ctx/jre"
  cp "$ROOT/docker/java/run-service" "$ROOT/docker/java/probe" "$ctx/"
  img_build "$image" "$ctx" "$ROOT/docker/java/Dockerfile" --build-arg "BASE=$base" \
    --label "dev.workcell.recipe-sha256=$recipe" --label "org.opencontainers.image.version=$(img_version)" || return
  rm -rf "$ctx"
}

# The images docker/compose.yaml needs besides the services: the first-start job, NATS and
# PostgreSQL made from Debian packages for machines that cannot pull the public ones, and the S3 server.
build_infra_images() {
  local base=$1 name started ctx
  for name in compose-init nats postgres socket-proxy; do
    started=$SECONDS
    # The init job reuses the launcher's NATS users (bin/lib/nats-users.sh and nats-permissions.sh) unchanged.
    ctx=$(si_make_context "$name")
    cp -a "$ROOT/docker/compose/$name/." "$ctx/"
    [[ $name != compose-init ]] || cp "$ROOT/bin/lib/nats-users.sh" "$ROOT/bin/lib/nats-permissions.sh" "$ctx/"
    img_build "workcell/$name:$(img_version)" "$ctx" "$ctx/Dockerfile" \
      --build-arg "BASE=$base" --label "org.opencontainers.image.version=$(img_version)" \
      --label "org.opencontainers.image.revision=$(img_revision docker/compose bin/lib/nats-users.sh bin/lib/nats-permissions.sh)" || return
    rm -rf "$ctx"
    printf '%-46s %8s %6s s\n' "workcell/$name:$(img_version)" "$(img_size "workcell/$name:$(img_version)")" "$((SECONDS - started))"
  done
  # sandbox-mirror's S3 server: s3proxy's jar (Maven, as the launcher fetches it) on the Java runtime.
  started=$SECONDS
  s3_fetch_jar || return
  ctx=$(si_make_context s3proxy)
  cp -a "$ROOT/docker/compose/s3/." "$ctx/"
  cp "$(s3_jar)" "$ctx/s3proxy.jar"
  img_build "workcell/s3proxy:$(img_version)" "$ctx" "$ctx/Dockerfile" --build-arg "RUNTIME=$(img_runtime_image)" \
    --label "org.opencontainers.image.version=$WC_S3_VERSION" --label "org.opencontainers.image.revision=$(img_revision docker/compose/s3)" || return
  rm -rf "$ctx"
  printf '%-46s %8s %6s s\n' "workcell/s3proxy:$(img_version)" "$(img_size "workcell/s3proxy:$(img_version)")" "$((SECONDS - started))"
}

# build_images [--infra] — every service image (and with --infra the compose images); a table of
# sizes and build times on stdout.
build_images() {
  local infra=0 arg
  for arg in "$@"; do
    case $arg in
      --infra) infra=1 ;;
      *) wc_die "images: unknown option $arg (try --infra)" ;;
    esac
  done
  local log base jre module image started total=$SECONDS version
  log=$(img_log)
  de_rotate_log "$log"
  de_docker_answers || ensure_docker_engine || return
  wc_ensure_java
  wc_build
  version=$(img_version)
  wc_say "images $version (log: $log)"
  base=$(img_base) || return
  started=$SECONDS
  jre=$(img_jre) || return
  img_runtime "$base" "$jre" || return
  wc_info "java runtime $(img_runtime_image): $(img_size "$(img_runtime_image)") ($((SECONDS - started)) s; JRE $(du -sh "$jre" | cut -f1))"
  printf '%-46s %8s %8s\n' IMAGE SIZE BUILD
  for module in "${IMG_MODULES[@]}"; do
    started=$SECONDS
    image=$(img_service_image "$module")
    img_build "$image" "$ROOT/$module/target/quarkus-app" "$ROOT/docker/service/Dockerfile" \
      --build-arg "RUNTIME=$(img_runtime_image)" --build-arg "SERVICE=$module" --build-arg "VERSION=$version" \
      --build-arg "REVISION=$(img_revision "$module" contracts messaging pom.xml)" || return
    printf '%-46s %8s %6s s\n' "$image" "$(img_size "$image")" "$((SECONDS - started))"
  done
  ((infra)) && { build_infra_images "$base" || return; }
  wc_info "images built in $((SECONDS - total)) s"
}
