#!/bin/sh
# A streaming replica's entrypoint, for the official postgres image and the local stand-in
# alike: when the data volume is empty, copies the primary (LNI_PRIMARY_HOST, _PORT) with
# `pg_basebackup -R` as LNI_REPLICATION_USER / LNI_REPLICATION_PASSWORD, which leaves
# standby.signal and primary_conninfo behind; then hands over to the image's own entrypoint,
# which finds a cluster and starts it: a hot standby that streams from the primary from then on.
# It streams through a physical replication slot on the primary (LNI_REPLICATION_SLOT,
# `lni_replica`), so the primary keeps the WAL the replica has not received, however long it is
# away (up to the primary's max_slot_wal_keep_size). The slot is made by the copy
# (`pg_basebackup -C -S`) and checked at every later start: made again if it is gone, and
# primary_slot_name added to a replica copied before slots were used.
set -eu

slot="${LNI_REPLICATION_SLOT:-lni_replica}"
case "$slot" in
  '' | *[!a-z0-9_]*)
    echo "replica-entrypoint: LNI_REPLICATION_SLOT '$slot': lower-case letters, digits and _ only" >&2
    exit 1
    ;;
esac

# gosu in the official image, setpriv (util-linux) in the stand-in.
as_postgres() {
  if command -v gosu >/dev/null; then
    gosu postgres "$@"
  else
    setpriv --reuid=postgres --regid=postgres --init-groups "$@"
  fi
}

host="${LNI_PRIMARY_HOST:?LNI_PRIMARY_HOST: the primary to copy}"
port="${LNI_PRIMARY_PORT:-5432}"
user="${LNI_REPLICATION_USER:-replicator}"

# A replication command (CREATE_REPLICATION_SLOT, ...) on the primary, over a replication
# connection: all that pg_hba.conf lets the role do there. Prints the answer's rows.
on_primary() {
  PGPASSWORD="$LNI_REPLICATION_PASSWORD" psql --no-psqlrc --no-password -At -v ON_ERROR_STOP=1 \
    "host=$host port=$port user=$user dbname=replication replication=true" -c "$1"
}

# Whether the primary has the slot (READ_REPLICATION_SLOT answers a row of nulls when not).
slot_exists() {
  [ "$(on_primary "READ_REPLICATION_SLOT $slot" | cut -d'|' -f1)" = physical ]
}

if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${LNI_REPLICATION_PASSWORD:?LNI_REPLICATION_PASSWORD: the password of $user on $host}"

  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  wait_seconds="${LNI_PRIMARY_WAIT_SECONDS:-120}"
  until pg_isready -q -h "$host" -p "$port"; do
    wait_seconds=$((wait_seconds - 2))
    if [ "$wait_seconds" -le 0 ]; then
      echo "replica-entrypoint: the primary $host:$port does not answer" >&2
      exit 1
    fi
    sleep 2
  done
  # A slot of this name without a replica (an earlier copy whose volume was removed) keeps WAL
  # for no one: the new copy starts it anew. One in use (another replica streaming through it)
  # cannot be dropped, and the copy stops here saying so.
  if slot_exists; then
    echo "replica-entrypoint: dropping the slot $slot left on $host:$port by an earlier copy"
    on_primary "DROP_REPLICATION_SLOT $slot" >/dev/null
  fi
  echo "replica-entrypoint: copying $host:$port as $user (pg_basebackup -R, slot $slot)"
  # The password goes into primary_conninfo (postgresql.auto.conf, in the replica's volume), so
  # the standby reconnects by itself after the primary restarts; -R with -S writes
  # primary_slot_name beside it.
  export PGPASSWORD="$LNI_REPLICATION_PASSWORD"
  if ! as_postgres pg_basebackup --host="$host" --port="$port" --username="$user" \
    --pgdata="$PGDATA" --write-recovery-conf --wal-method=stream --checkpoint=fast --no-password \
    --create-slot --slot="$slot"
  then
    # A half copy would start as a broken cluster at the next attempt; start again from empty,
    # without the slot the failed copy may have made (it would keep WAL for no one).
    find "$PGDATA" -mindepth 1 -delete
    if slot_exists; then on_primary "DROP_REPLICATION_SLOT $slot" >/dev/null || true; fi
    echo "replica-entrypoint: pg_basebackup from $host:$port failed (see above)" >&2
    exit 1
  fi
  unset PGPASSWORD
elif [ "${1:-}" = postgres ] && [ -f "$PGDATA/standby.signal" ]; then
  # A later start. A replica copied before slots were used streams through one from now on.
  conf="$PGDATA/postgresql.auto.conf"
  if ! grep -q '^primary_slot_name' "$conf"; then
    echo "primary_slot_name = '$slot'" >>"$conf"
    echo "replica-entrypoint: streaming through the slot $slot from now on"
  fi
  # The slot is gone if an operator dropped it: made again, keeping WAL from now on (what the
  # replica missed meanwhile may be gone: then it says so in its log and must be copied anew).
  # A primary that does not answer yet is no reason not to start: the standby retries.
  if [ -n "${LNI_REPLICATION_PASSWORD:-}" ] && pg_isready -q -h "$host" -p "$port"; then
    if ! slot_exists; then
      echo "replica-entrypoint: the slot $slot is not on $host:$port: making it again"
      on_primary "CREATE_REPLICATION_SLOT $slot PHYSICAL RESERVE_WAL" >/dev/null ||
        echo "replica-entrypoint: could not make the slot $slot (see above)" >&2
    fi
  else
    echo "replica-entrypoint: $host:$port does not answer: the slot $slot is not checked" >&2
  fi
fi
exec docker-entrypoint.sh "$@"
