# The replica profile's stage of docker/e2e.sh, sourced by it (its helpers: compose, api, log,
# fail, timed; its variables: DOCKER, WORK, API_PORT, LB_PORT, PROFILE_ARGS). Runs on the
# compose project e2e.sh has up (PostgreSQL, relay, forger), with the image already built:
# adds postgres-replica, three api nodes and HAProxy, and checks what an operator relies on.

readonly API_NODES=3

# One answer through HAProxy: prints "<node that answered> <value at path>"; fails (quietly)
# unless the answer is a 200 with that value.
lb() {
  node -e '
    const [url, path] = process.argv.slice(1);
    const fail = (why) => { console.error(`lb ${url}: ${why}`); process.exit(1); };
    const timer = setTimeout(() => fail("no answer in 5 s"), 5000);
    fetch(url)
      .then(async (r) => {
        if (!r.ok) fail(`HTTP ${r.status} from ${r.headers.get("x-lni-served-by")}`);
        const value = path.split(".").reduce((node, key) => node?.[key], await r.json());
        if (value === undefined || value === null) fail(`no ${path} in the answer`);
        console.log(r.headers.get("x-lni-served-by"), value);
        clearTimeout(timer);
      })
      .catch((error) => fail(error.message));
  ' "http://127.0.0.1:$LB_PORT$1" "$2" 2>>"$WORK/lb-errors.log"
}

replica_up() {
  PROFILE_ARGS=(--profile replica)
  compose up -d --no-build --scale "api=$API_NODES" >"$WORK/compose-replica.log" 2>&1 ||
    { cat "$WORK/compose-replica.log" >&2; fail "docker-compose --profile replica up failed"; }
  local deadline=$((SECONDS + 180))
  until lb /api/blockchain data.block.height >/dev/null; do
    ((SECONDS < deadline)) || { compose logs --tail 40 api haproxy >&2; fail "no API on $LB_PORT"; }
    sleep 1
  done
}

sql() { compose exec -T "$1" psql -U lni -d lni_testnet -Atc "$2"; }

replica_streams() {
  local recovery streaming
  recovery="$(sql postgres-replica 'SELECT pg_is_in_recovery()')"
  [[ "$recovery" == t ]] || fail "postgres-replica is not in recovery (pg_is_in_recovery: $recovery)"
  streaming="$(sql postgres "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")"
  [[ "$streaming" == 1 ]] || fail "the primary streams to $streaming replicas, not 1"
  # Through its slot: the primary keeps the WAL it has not received while it is away.
  local slots
  slots="$(sql postgres 'SELECT slot_name, active FROM pg_replication_slots')"
  [[ "$slots" == "lni_replica|t" ]] ||
    fail "the primary's replication slots are '${slots//$'\n'/, }', not 'lni_replica|t'"
  log "postgres-replica is a hot standby streaming from postgres through the slot lni_replica"
}

# The client an api node sees behind HAProxy: /metrics (loopback only) refuses it by its
# address. That is the host's, as HAProxy saw it (the network's gateway), not HAProxy's own
# address, nor the one a client writes into X-Forwarded-For.
api_nodes_see_the_client() {
  local message haproxy_ip
  message="$(node -e '
    fetch(process.argv[1], { headers: { "x-forwarded-for": "203.0.113.99" } })
      .then(async (r) => console.log(r.status, (await r.json()).message))
      .catch((error) => { console.error(error.message); process.exit(1); });
  ' "http://127.0.0.1:$LB_PORT/metrics")" || fail "GET /metrics through HAProxy did not answer"
  haproxy_ip="$("$DOCKER" inspect --format \
    '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(container haproxy)")"
  [[ "$message" =~ ^403\ ([0-9.]+)\ is\ not ]] || fail "/metrics through HAProxy: '$message'"
  local client="${BASH_REMATCH[1]}"
  [[ "$client" != 203.0.113.99 && "$client" != "$haproxy_ip" ]] ||
    fail "an api node took $client for the client (HAProxy is $haproxy_ip): '$message'"
  log "an api node sees the client behind HAProxy ($haproxy_ip) as $client, not what it wrote"
}

# Asks HAProxy for the last block until every api node answered (up to `seconds`), each at a
# height within a block of the relay's (read directly before and after).
every_node_follows() {
  local seconds="$1" deadline=$((SECONDS + $1)) answer node height before after
  local -A seen=()
  while ((${#seen[@]} < API_NODES)); do
    ((SECONDS < deadline)) || fail "after ${seconds} s only ${!seen[*]} answered /api/blocks/last"
    before="$(api /api/blockchain data.block.height)"
    answer="$(lb /api/blocks/last data.height)" || { sleep 0.5; continue; }
    after="$(api /api/blockchain data.block.height)"
    read -r node height <<<"$answer"
    ((height >= before - 1 && height <= after + 1)) ||
      fail "$node answered height $height while the relay was at $before-$after"
    seen[$node]="$height"
  done
  log "/api/blocks/last answered by ${!seen[*]} at heights ${seen[*]}, the relay at $after"
}

# Asks HAProxy for a transaction until every api node answered it with a 200.
every_node_has() {
  local id="$1" deadline=$((SECONDS + $2)) answer node
  local -A seen=()
  while ((${#seen[@]} < API_NODES)); do
    ((SECONDS < deadline)) || fail "after $2 s only ${!seen[*]} serve transaction $id"
    answer="$(lb "/api/transactions/$id" data.id)" || { sleep 0.5; continue; }
    read -r node _ <<<"$answer"
    seen[$node]=1
  done
  log "transaction $id served by ${!seen[*]}"
}

# A transfer posted to HAProxy reaches the relay's pool (or a block already), then every api
# node serves it once forged.
submission_reaches_relay() {
  local id deadline=$((SECONDS + 15))
  id="$(node "$REPO/docker/e2e/submit-transfer.mjs" "http://127.0.0.1:$LB_PORT/api")" ||
    fail "the transfer posted through HAProxy was not accepted"
  until api "/api/transactions/unconfirmed/$id" data.id >/dev/null ||
    api "/api/transactions/$id" data.id >/dev/null; do
    ((SECONDS < deadline)) || fail "transaction $id, accepted through HAProxy, is not on the relay"
    sleep 0.5
  done
  log "transaction $id, posted through HAProxy, is on the relay"
  deadline=$((SECONDS + 40))
  until api "/api/transactions/$id" data.id >/dev/null; do
    ((SECONDS < deadline)) || fail "transaction $id was not forged within 40 s"
    sleep 1
  done
  every_node_has "$id" 30
}

# The relay limits the client an api node names, not the api node: it trusts the addresses of
# `api-upstream`, where the api nodes reach it. One client (named by the host, which the api
# nodes trust on `api-lb`) sends 330 forwarded requests straight to two api nodes, in turn:
# each counts at most 165 of its 300, the relay all of them, so the 429 is the relay's, for that
# client. Not through HAProxy, whose own limit would answer first.
relay_sees_the_client() {
  local network="${PROJECT}_api-lb" nodes=() id answer
  for id in $(compose ps -q api); do
    nodes+=("$("$DOCKER" inspect --format "{{(index .NetworkSettings.Networks \"$network\").IPAddress}}" "$id")")
  done
  ((${#nodes[@]} >= 2)) || fail "found ${#nodes[@]} api nodes on $network, not 2 or more"
  answer="$(node -e '
    const [client, ...nodes] = process.argv.slice(1);
    (async () => {
      for (let i = 0; i < 330; i++) {
        const url = `http://${nodes[i % 2]}:4003/api/transactions/unconfirmed`;
        const r = await fetch(url, { headers: { "x-forwarded-for": client } });
        if (r.status === 429) return console.log(i + 1, (await r.json()).message);
        if (!r.ok) return console.log(i + 1, `HTTP ${r.status} from ${url}`);
      }
      console.log("330 requests, none refused");
    })().catch((error) => { console.error(error.message); process.exit(1); });
  ' 198.51.100.7 "${nodes[@]:0:2}")" || fail "requests to the api nodes at ${nodes[*]} failed"
  [[ "$answer" =~ ^30[0-9]\ rate\ limit\ .*\ for\ 198\.51\.100\.7$ ]] ||
    fail "330 forwarded requests of 198.51.100.7 via two api nodes: '$answer'"
  log "the relay limits the client behind the api nodes: request ${answer%% *} answered 429 for 198.51.100.7"
}

one_node_stops() {
  local id code answered=0 i
  id="$(compose ps -q api | head -1)"
  "$DOCKER" stop -t 30 "$id" >/dev/null
  code="$("$DOCKER" inspect --format '{{.State.ExitCode}}' "$id")"
  [[ "$code" == 0 ]] || fail "an api node exited with $code on SIGTERM"
  # At once, before HAProxy's health check saw it go: requests to it are sent elsewhere.
  for i in $(seq 1 20); do
    lb /api/blocks/last data.height >/dev/null || fail "request $i failed after an api node stopped"
    answered=$((answered + 1))
  done
  log "one api node stopped (exit code 0): HAProxy answered $answered requests of $answered"
}

replica_stage() {
  local start=$SECONDS
  timed "replica profile up, HAProxy answering" replica_up
  replica_streams
  api_nodes_see_the_client
  timed "$API_NODES api nodes answering via HAProxy" every_node_follows 60
  timed "transfer via HAProxy: relay, block, api nodes" submission_reaches_relay
  relay_sees_the_client
  one_node_stops
  TIMINGS+=("$(printf '%-44s %4ss' "replica stage in all" $((SECONDS - start)))")
}
