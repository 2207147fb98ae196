#!/usr/bin/env bash
# End to end, for real: builds the LNI image, runs docker/compose.yml (PostgreSQL, a relay, a
# forger) under a project name of its own, and checks what operators rely on: the API answers
# on the published port, the chain advances, the relay's chain survives `down` / `up`, the
# containers stop cleanly on SIGTERM, and the P2P firewall script's limits apply to the
# published P2P port; then the profile `replica` (a streaming replica, three api nodes, HAProxy:
# docker/e2e/replica-stage.sh). Then removes every container, network, volume, namespace and
# image it made. docker/README.md describes each step and what it takes.
#
# It installs the engine when missing (apt, root), starts dockerd when none answers (and stops
# it again at the end), and where Docker Hub cannot be reached builds local stand-ins for
# node:20-bookworm-slim, postgres:15 and haproxy:2.6 from Debian, cached in LNI_DOCKER_CACHE.
# `docker/e2e.sh --prepare` does only that (engine, base images) and stops: CI runs it early,
# beside the unit tests, since it waits mostly on the network.
set -euo pipefail
shopt -s inherit_errexit

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly REPO="$PWD"
readonly CACHE="${LNI_DOCKER_CACHE:-$HOME/.cache/lni/docker}"
readonly NODE_IMAGE_WANTED="${LNI_NODE_IMAGE:-node:20-bookworm-slim}"
readonly POSTGRES_IMAGE_WANTED="${LNI_POSTGRES_IMAGE:-postgres:15}"
readonly HAPROXY_IMAGE_WANTED="${LNI_HAPROXY_IMAGE:-haproxy:2.6}"
readonly RUN_ID="$$"
readonly PROJECT="lnie2e${RUN_ID}"
readonly IMAGE="lni-e2e:${RUN_ID}"
readonly FIREWALL_CHAIN="LNI-E2E-${RUN_ID}"
readonly NETNS="lnie2e-${RUN_ID}"
readonly VETH="lnie2e${RUN_ID: -6}"
WORK="$(mktemp -d /tmp/lni-docker-e2e.XXXXXX)"
readonly WORK
readonly BUILD_CA="docker/.cache/build-ca.pem"
readonly FIREWALL="$REPO/packages/p2p/scripts/p2p-firewall.sh"
readonly PROBE="$REPO/docker/e2e/connect-probe.mjs"
# The legacy builder: Debian's engine has no buildx, and nothing here needs BuildKit.
export DOCKER_BUILDKIT=0 COMPOSE_DOCKER_CLI_BUILD=0

DOCKER=docker
COMPOSE=()
STARTED_DOCKERD_PID=""
IP_FORWARD_BEFORE=""
FORWARD_POLICY_BEFORE=""
DOCKER_HOST_STATE_BEFORE=1
NETNS_MADE=0
FIREWALL_STARTED=0
COMPOSE_UP=0
# `--profile replica` once the replica stage has begun, so that `down` removes its services too.
PROFILE_ARGS=()
RUN_STARTED="$(date +%s)"
TIMINGS=()

log() { printf '\n== docker e2e: %s\n' "$*" >&2; }
fail() {
  printf '\n== docker e2e: FAILED: %s\n' "$*" >&2
  exit 1
}
# Records how long a step took, for the summary at the end.
timed() {
  local label="$1" start=$SECONDS
  shift
  "$@"
  TIMINGS+=("$(printf '%-44s %4ss' "$label" $((SECONDS - start)))")
}

ensure_engine() {
  if command -v dockerd >/dev/null && { command -v docker-compose >/dev/null ||
    docker compose version >/dev/null 2>&1; } && command -v debootstrap >/dev/null; then
    return 0
  fi
  ((EUID == 0)) || fail "Docker is not installed and installing it needs root"
  log "installing docker.io, docker-compose, debootstrap, iptables (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    docker.io docker-compose debootstrap iptables iproute2 >/dev/null
}

# Debian's client, which the legacy builder suits; another `docker` may come first in PATH.
pick_clients() {
  if [[ -x /usr/bin/docker ]]; then DOCKER=/usr/bin/docker; fi
  if command -v docker-compose >/dev/null; then
    COMPOSE=(docker-compose)
  else
    COMPOSE=("$DOCKER" compose)
  fi
}

ensure_daemon() {
  if "$DOCKER" info >/dev/null 2>&1; then return 0; fi
  ((EUID == 0)) || fail "no Docker daemon answers and starting one needs root"
  log "starting dockerd (log: $WORK/dockerd.log)"
  # dockerd turns forwarding on and the FORWARD policy to DROP; both are put back at the end.
  IP_FORWARD_BEFORE="$(cat /proc/sys/net/ipv4/ip_forward)"
  FORWARD_POLICY_BEFORE="$(iptables -S FORWARD 2>/dev/null | sed -n 's/^-P FORWARD //p')"
  if ! iptables -S DOCKER-USER >/dev/null 2>&1 && ! ip link show docker0 >/dev/null 2>&1; then
    DOCKER_HOST_STATE_BEFORE=0
  fi
  dockerd >"$WORK/dockerd.log" 2>&1 &
  STARTED_DOCKERD_PID=$!
  for _ in $(seq 1 60); do
    if "$DOCKER" info >/dev/null 2>&1; then return 0; fi
    kill -0 "$STARTED_DOCKERD_PID" 2>/dev/null || break
    sleep 0.5
  done
  tail -20 "$WORK/dockerd.log" >&2 || true
  fail "dockerd did not answer within 30 s"
}

has_image() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }

# The official image when present or pullable; otherwise the empty string.
official_image() {
  if has_image "$1"; then
    echo "$1"
  elif timeout 60 "$DOCKER" pull -q "$1" >/dev/null 2>&1; then
    echo "$1"
  fi
}

# debootstrap's Debian bookworm (minbase), imported once; the rootfs tarball is cached.
debian_stand_in() {
  local image=lni-local/debian:bookworm tarball="$CACHE/bookworm-minbase.tar" mirror rootfs
  if has_image "$image"; then return 0; fi
  mkdir -p "$CACHE"
  if [[ ! -s "$tarball" ]]; then
    mirror="$(apt_mirror)"
    rootfs="$WORK/rootfs"
    log "debootstrap bookworm from $mirror (cached in $tarball)"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$WORK/debootstrap.log" 2>&1 ||
      { tail -20 "$WORK/debootstrap.log" >&2; fail "debootstrap failed"; }
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    echo "deb $mirror bookworm main" >"$rootfs/etc/apt/sources.list"
    tar -C "$rootfs" --numeric-owner -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    rm -rf "$rootfs"
  fi
  "$DOCKER" import - "$image" <"$tarball" >/dev/null
}

# The Debian mirror apt already uses here (deb822 sources first, then sources.list).
apt_mirror() {
  local uri
  uri="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*debian\/\?\)$/\1/p' | head -1)"
  if [[ -z "$uri" ]]; then
    uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" && $3 ~ /^bookworm$/ { print $2; exit }')"
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

# node:20-bookworm-slim's stand-in: Debian with this host's Node.js (same version tag).
node_stand_in() {
  local version prefix image context
  version="$(node --version)"
  [[ "$version" == v20.* ]] || fail "the node stand-in copies this host's Node.js, $version, not 20"
  image="lni-local/node:${version}-bookworm-slim"
  if has_image "$image"; then
    echo "$image"
    return 0
  fi
  debian_stand_in
  prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  [[ -f "$prefix/include/node/node.h" && -d "$prefix/lib/node_modules/npm" ]] ||
    fail "this host's Node.js under $prefix lacks include/node or lib/node_modules/npm"
  context="$WORK/node-context"
  mkdir -p "$context/usr-local/bin" "$context/usr-local/lib/node_modules" "$context/usr-local/include"
  cp "$REPO/docker/stand-in/node/Dockerfile" "$context/"
  cp "$(readlink -f "$(command -v node)")" "$context/usr-local/bin/node"
  cp -a "$prefix/lib/node_modules/npm" "$context/usr-local/lib/node_modules/"
  cp -a "$prefix/include/node" "$context/usr-local/include/"
  log "building $image from this host's Node.js"
  "$DOCKER" build -q --build-arg NODE_VERSION="$version" -t "$image" "$context" >/dev/null
  rm -rf "$context"
  echo "$image"
}

postgres_stand_in() {
  local image=lni-local/postgres:15
  if ! has_image "$image"; then
    debian_stand_in
    log "building $image from Debian's postgresql-15"
    "$DOCKER" build -q -t "$image" "$REPO/docker/stand-in/postgres" >/dev/null
  fi
  echo "$image"
}

haproxy_stand_in() {
  local image=lni-local/haproxy:2.6
  if ! has_image "$image"; then
    debian_stand_in
    log "building $image from Debian's haproxy"
    "$DOCKER" build -q -t "$image" "$REPO/docker/stand-in/haproxy" >/dev/null
  fi
  echo "$image"
}

NODE_IMAGE=""
POSTGRES_IMAGE=""
HAPROXY_IMAGE=""
base_images() {
  NODE_IMAGE="$(official_image "$NODE_IMAGE_WANTED")"
  if [[ -z "$NODE_IMAGE" ]]; then
    log "$NODE_IMAGE_WANTED cannot be pulled: using a local stand-in"
    NODE_IMAGE="$(node_stand_in)"
  fi
  POSTGRES_IMAGE="$(official_image "$POSTGRES_IMAGE_WANTED")"
  if [[ -z "$POSTGRES_IMAGE" ]]; then
    log "$POSTGRES_IMAGE_WANTED cannot be pulled: using a local stand-in"
    POSTGRES_IMAGE="$(postgres_stand_in)"
  fi
  HAPROXY_IMAGE="$(official_image "$HAPROXY_IMAGE_WANTED")"
  if [[ -z "$HAPROXY_IMAGE" ]]; then
    log "$HAPROXY_IMAGE_WANTED cannot be pulled: using a local stand-in"
    HAPROXY_IMAGE="$(haproxy_stand_in)"
  fi
  log "base images: $NODE_IMAGE, $POSTGRES_IMAGE, $HAPROXY_IMAGE"
}

# The CA bundle npm and node trust here, for a registry reached through a re-signing proxy.
host_ca_bundle() {
  local file
  for file in "${NODE_EXTRA_CA_CERTS:-}" "$(npm config get cafile 2>/dev/null || true)" \
    /etc/ssl/certs/ca-certificates.crt; do
    if [[ -n "$file" && "$file" != null && "$file" != undefined && -s "$file" ]]; then
      echo "$file"
      return 0
    fi
  done
}

build_image() {
  local ca registry args=()
  ca="$(host_ca_bundle || true)"
  if [[ -n "$ca" ]]; then
    mkdir -p docker/.cache
    cp "$ca" "$BUILD_CA"
    args+=(--build-arg "BUILD_CA_FILE=$BUILD_CA")
  fi
  registry="$(npm config get registry 2>/dev/null || true)"
  if [[ -n "$registry" ]]; then args+=(--build-arg "NPM_REGISTRY=$registry"); fi
  for proxy in HTTP_PROXY HTTPS_PROXY NO_PROXY http_proxy https_proxy no_proxy; do
    if [[ -n "${!proxy:-}" ]]; then args+=(--build-arg "$proxy=${!proxy}"); fi
  done
  log "building $IMAGE on $NODE_IMAGE (log: $WORK/build.log)"
  if ! "$DOCKER" build -f docker/Dockerfile --build-arg "NODE_IMAGE=$NODE_IMAGE" "${args[@]}" \
    -t "$IMAGE" . >"$WORK/build.log" 2>&1; then
    tail -40 "$WORK/build.log" >&2
    fail "docker build failed"
  fi
  rm -f "$BUILD_CA"
}

check_image() {
  local user volumes size
  user="$("$DOCKER" image inspect --format '{{.Config.User}}' "$IMAGE")"
  [[ "$user" == node ]] || fail "the image runs as '$user', not the node user"
  volumes="$("$DOCKER" image inspect --format '{{json .Config.Volumes}}' "$IMAGE")"
  [[ "$volumes" == *'"/config"'* && "$volumes" == *'"/data"'* ]] ||
    fail "the image's volumes are $volumes, not /config and /data"
  "$DOCKER" image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE" | grep -q healthcheck ||
    fail "the image has no HEALTHCHECK"
  if "$DOCKER" run --rm --entrypoint sh "$IMAGE" -c 'ls /tmp/build-ca.pem docker 2>/dev/null'; then
    fail "the build's CA bundle or the docker/ directory reached the final image"
  fi
  size="$("$DOCKER" image inspect --format '{{.Size}}' "$IMAGE")"
  TIMINGS+=("$(printf '%-44s %4s MB' "image size" $((size / 1000 / 1000)))")
}

free_port() {
  node -e "const s=require('net').createServer().listen(0,'0.0.0.0',()=>{console.log(s.address().port);s.close()})"
}

compose() {
  LNI_IMAGE="$IMAGE" LNI_NODE_IMAGE="$NODE_IMAGE" LNI_POSTGRES_IMAGE="$POSTGRES_IMAGE" \
    LNI_P2P_PORT="$P2P_PORT" LNI_API_PORT="$API_PORT" LNI_FORGING_SUBNET="$FORGING_SUBNET" \
    LNI_HAPROXY_IMAGE="$HAPROXY_IMAGE" LNI_LB_API_PORT="$LB_PORT" LNI_API_LB_SUBNET="$LB_SUBNET" \
    LNI_API_UPSTREAM_SUBNET="$UPSTREAM_SUBNET" LNI_API_UPSTREAM_NODES="$UPSTREAM_NODES" \
    "${COMPOSE[@]}" -p "$PROJECT" -f docker/compose.yml "${PROFILE_ARGS[@]}" "$@"
}

container() { compose ps -q "$1"; }

# One value of the API's JSON on the published port, e.g. `api /api/blockchain data.block.height`;
# fails (quietly) while the API does not answer.
api() {
  # The timer keeps the process alive: a connection that docker-proxy accepts while the node is
  # still starting can leave nothing else pending, and node would exit 0 having printed nothing.
  node -e '
    const [url, path] = process.argv.slice(1);
    const fail = (why) => { console.error(`api ${url}: ${why}`); process.exit(1); };
    const timer = setTimeout(() => fail("no answer in 3 s"), 3000);
    fetch(url)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((body) => {
        const value = path.split(".").reduce((node, key) => node?.[key], body);
        if (value === undefined || value === null) fail(`no ${path} in the answer`);
        console.log(value);
        clearTimeout(timer);
      })
      .catch((error) => fail(error.message));
  ' "http://127.0.0.1:$API_PORT$1" "$2" 2>>"$WORK/api-errors.log"
}

wait_for_api() {
  local deadline=$((SECONDS + $1))
  until api /api/blockchain data.block.height >/dev/null; do
    ((SECONDS < deadline)) || { compose logs --tail 40 >&2; fail "no API on 127.0.0.1:$API_PORT"; }
    sleep 2
  done
}

# Waits until the height is at least $1 (two blocks take 16 s on testnet).
wait_for_height() {
  local target="$1" deadline=$((SECONDS + $2)) height=0
  while :; do
    height="$(api /api/blockchain data.block.height || echo 0)"
    ((height >= target)) && return 0
    ((SECONDS < deadline)) || { compose logs --tail 40 >&2; fail "height $height, not $target"; }
    sleep 2
  done
}

wait_for_healthy() {
  local id status deadline=$((SECONDS + $2))
  id="$(container "$1")"
  while :; do
    status="$("$DOCKER" inspect --format '{{.State.Health.Status}}' "$id")"
    [[ "$status" == healthy ]] && return 0
    ((SECONDS < deadline)) || fail "$1 is $status, not healthy"
    sleep 2
  done
}

up_and_forging() {
  compose up -d --no-build >"$WORK/compose-up.log" 2>&1 ||
    { cat "$WORK/compose-up.log" >&2; fail "docker-compose up failed"; }
  COMPOSE_UP=1
  wait_for_api 240
  local height
  height="$(api /api/blockchain data.block.height)"
  wait_for_height $((height + 2)) 120
  log "the API answers on 127.0.0.1:$API_PORT and the chain advances: height $height, then $(
    api /api/blockchain data.block.height
  )"
}

check_running_node() {
  wait_for_healthy relay 120
  local uid
  uid="$("$DOCKER" exec "$(container relay)" id -u)"
  ((uid != 0)) || fail "the relay runs as root"
}

# `docker stop` sends SIGTERM; exit code 0 (not 137, a kill at the timeout) is a clean stop.
# The forger first, as compose stops them, each timed against compose's 30 s grace period.
stop_cleanly() {
  local service id code start
  for service in forger relay; do
    id="$(container "$service")"
    start=$SECONDS
    "$DOCKER" stop -t 30 "$id" >/dev/null
    code="$("$DOCKER" inspect --format '{{.State.ExitCode}}' "$id")"
    [[ "$code" == 0 ]] || fail "$service exited with $code on SIGTERM"
    TIMINGS+=("$(printf '%-44s %4ss' "$service stopped by SIGTERM, exit code 0" $((SECONDS - start)))")
  done
  compose stop >/dev/null 2>&1
}

survives_down_up() {
  local height id_before id_after height_after
  height="$(api /api/blockchain data.block.height)"
  id_before="$(api "/api/blocks/$height" data.id)"
  stop_cleanly
  compose down >/dev/null 2>&1
  timed "docker-compose up again, API answering" up_again
  id_after="$(api "/api/blocks/$height" data.id)"
  if [[ "$id_after" != "$id_before" ]]; then
    compose logs --tail 60 relay >&2
    fail "block $height was $id_before before down/up, now ${id_after:-missing}"
  fi
  height_after="$(api /api/blockchain data.block.height)"
  ((height_after >= height)) || fail "the height went from $height to $height_after"
  wait_for_height $((height_after + 1)) 120
  log "after down/up block $height is still $id_before; the chain goes on from $height_after"
}

up_again() {
  compose up -d --no-build >"$WORK/compose-up2.log" 2>&1 ||
    { cat "$WORK/compose-up2.log" >&2; fail "docker-compose up (again) failed"; }
  wait_for_api 240
}

firewall_skip_reason() {
  if ((EUID != 0)); then echo "it needs root for iptables and a network namespace"; return; fi
  for tool in iptables ip; do
    command -v "$tool" >/dev/null || { echo "'$tool' is not installed"; return; }
  done
  iptables -S DOCKER-USER >/dev/null 2>&1 || echo "dockerd runs without its iptables rules"
}

# A client in a network namespace reaches the host over a veth and the published P2P port by
# Docker's DNAT, as a peer on the network would.
probe_from_netns() { ip netns exec "$NETNS" node "$PROBE" "$HOST_SIDE" "$P2P_PORT" "$1"; }

firewall_applies() {
  local a=$((RANDOM % 250 + 2)) result
  HOST_SIDE="10.231.$a.1"
  ip netns add "$NETNS"
  NETNS_MADE=1
  ip link add "$VETH" type veth peer name eth0 netns "$NETNS"
  ip addr add "$HOST_SIDE/30" dev "$VETH"
  ip link set "$VETH" up
  ip -n "$NETNS" addr add "10.231.$a.2/30" dev eth0
  ip -n "$NETNS" link set eth0 up
  ip -n "$NETNS" link set lo up
  ip -n "$NETNS" route add default via "$HOST_SIDE"

  result="$(probe_from_netns 2)"
  [[ "$result" != *ECONNREFUSED* ]] || fail "refused before any limit was installed: $result"

  # Limits below the node's own (10 per IP, 4 new per 30 s), so a refusal is the firewall's:
  # a TCP reset to the SYN (ECONNREFUSED), where the node would accept and then close.
  local fw=("$FIREWALL" --docker --port "$P2P_PORT" --chain "$FIREWALL_CHAIN")
  "${fw[@]}" --global-conn 1 --new-conn 2 --new-conn-interval 300 start
  FIREWALL_STARTED=1
  "${fw[@]}" status >/dev/null || fail "p2p-firewall.sh status does not report the limits active"

  result="$(probe_from_netns 2)"
  [[ "$result" == '["connected","ECONNREFUSED"]' ]] ||
    fail "1 connection per IP: expected the second refused, got $result"
  result="$(probe_from_netns 1)"
  [[ "$result" == '["connected"]' ]] || fail "the second new connection was refused: $result"
  result="$(probe_from_netns 1)"
  [[ "$result" == '["ECONNREFUSED"]' ]] ||
    fail "2 new connections per 300 s: expected the third refused, got $result"
  result="$(node "$PROBE" 127.0.0.1 "$P2P_PORT" 3)"
  [[ "$result" != *ECONNREFUSED* ]] || fail "loopback was limited: $result"

  "${fw[@]}" stop
  FIREWALL_STARTED=0
  if "${fw[@]}" status >/dev/null 2>&1; then fail "status reports the limits after stop"; fi
  result="$(probe_from_netns 1)"
  [[ "$result" != *ECONNREFUSED* ]] || fail "still refused after stop: $result"
  log "p2p-firewall.sh --docker: per-IP and new-connection limits refuse on the published port"
}

# dockerd leaves its bridge and iptables rules behind when it stops (it makes them again at its
# next start); a dockerd this script started on a host without them takes them away again.
undo_dockerd_host_state() {
  local table rule chain words
  for table in filter nat; do
    while IFS= read -r rule; do
      read -ra words <<<"$rule"
      words[0]=-D
      iptables -w 10 -t "$table" "${words[@]}"
    done < <(iptables -w 10 -t "$table" -S |
      grep -E -- '^-A (FORWARD|PREROUTING|OUTPUT|POSTROUTING) .*(-j DOCKER|docker0)' || true)
    for chain in $(iptables -w 10 -t "$table" -S | sed -n 's/^-N \(DOCKER[A-Z0-9-]*\)$/\1/p'); do
      iptables -w 10 -t "$table" -F "$chain"
    done
    for chain in $(iptables -w 10 -t "$table" -S | sed -n 's/^-N \(DOCKER[A-Z0-9-]*\)$/\1/p'); do
      iptables -w 10 -t "$table" -X "$chain"
    done
  done
  ip link del docker0 2>/dev/null || true
}

cleanup() {
  local code=$?
  set +e
  if ((FIREWALL_STARTED)); then "$FIREWALL" --docker --chain "$FIREWALL_CHAIN" stop 2>/dev/null; fi
  if ((NETNS_MADE)); then ip netns del "$NETNS"; fi
  if ((COMPOSE_UP)); then
    if ((code != 0)); then compose logs --tail 60 >"$WORK/compose.log" 2>&1; fi
    compose down -v --remove-orphans >/dev/null 2>&1
  fi
  rm -f "$BUILD_CA"
  if [[ -n "$DOCKER" ]] && "$DOCKER" info >/dev/null 2>&1; then
    "$DOCKER" image rm "$IMAGE" >/dev/null 2>&1
    # The build stage's layers of earlier runs; this run's stay as the cache of the next one.
    "$DOCKER" image prune -f --filter label=org.lni.stage=build \
      --filter "until=$(date -u -d "@$RUN_STARTED" +%Y-%m-%dT%H:%M:%S)" >/dev/null 2>&1
  fi
  if [[ -n "$STARTED_DOCKERD_PID" ]]; then
    kill "$STARTED_DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 40); do kill -0 "$STARTED_DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
    [[ -z "$IP_FORWARD_BEFORE" ]] || echo "$IP_FORWARD_BEFORE" >/proc/sys/net/ipv4/ip_forward
    [[ -z "$FORWARD_POLICY_BEFORE" ]] || iptables -P FORWARD "$FORWARD_POLICY_BEFORE"
    if ((DOCKER_HOST_STATE_BEFORE == 0)) && ! kill -0 "$STARTED_DOCKERD_PID" 2>/dev/null; then
      undo_dockerd_host_state
    fi
  fi
  if ((code == 0)); then
    rm -rf "$WORK"
  else
    echo "== docker e2e: logs kept in $WORK" >&2
  fi
  exit "$code"
}

main() {
  trap cleanup EXIT
  # A stop from outside (CI ending early, ^C) still removes what the run made.
  trap 'exit 143' TERM
  trap 'exit 130' INT
  timed "engine installed" ensure_engine
  pick_clients
  timed "dockerd answering" ensure_daemon
  timed "base images (pulled, cached or stand-ins)" base_images
  if [[ "${1:-}" == --prepare ]]; then
    # Only what waits on the network (CI runs this beside the unit tests); the run comes later.
    log "prepared: engine and base images; times on this machine:"
    printf '  %s\n' "${TIMINGS[@]}" >&2
    return 0
  fi
  timed "docker build" build_image
  check_image
  P2P_PORT="$(free_port)"
  API_PORT="$(free_port)"
  LB_PORT="$(free_port)"
  local octet=$((RANDOM % 256))
  FORGING_SUBNET="172.30.$octet.$((RANDOM % 32 * 8))/29"
  # HAProxy's network with the api nodes: beside the forging network, never overlapping it.
  LB_SUBNET="172.30.$(((octet + 128) % 256)).$((RANDOM % 8 * 32))/27"
  # The relay's network with the api nodes, a third range; its containers in the upper half.
  local upstream="172.30.$(((octet + 64) % 256)).$((RANDOM % 4 * 64))"
  UPSTREAM_SUBNET="$upstream/26"
  UPSTREAM_NODES="${upstream%.*}.$((${upstream##*.} + 32))/27"
  log "project $PROJECT: P2P on $P2P_PORT, API on $API_PORT, HAProxy on $LB_PORT, forging network $FORGING_SUBNET, HAProxy's network $LB_SUBNET, the relay's with the api nodes $UPSTREAM_SUBNET"
  timed "docker-compose up, 2 blocks forged" up_and_forging
  check_running_node
  local skip
  skip="$(firewall_skip_reason)"
  if [[ -n "$skip" ]]; then
    log "P2P firewall on the published port SKIPPED: $skip"
  else
    timed "p2p-firewall.sh --docker checks" firewall_applies
  fi
  survives_down_up
  replica_stage
  log "passed; times on this machine:"
  printf '  %s\n' "${TIMINGS[@]}" >&2
}

# shellcheck source=docker/e2e/replica-stage.sh
source "$REPO/docker/e2e/replica-stage.sh"
main "$@"
