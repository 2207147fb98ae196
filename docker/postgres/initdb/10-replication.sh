#!/bin/sh
# Lets streaming replicas in: a role with REPLICATION (LNI_REPLICATION_USER, `replicator` by
# default, password LNI_REPLICATION_PASSWORD) and a pg_hba.conf line for its replication
# connections. The postgres image runs it once, on the primary's first start (mounted into
# /docker-entrypoint-initdb.d); it is idempotent, so a primary made before it was mounted gets
# the same with: docker compose exec -u postgres postgres /docker-entrypoint-initdb.d/10-replication.sh
# wal_level is already `replica` (PostgreSQL's default); compose passes it explicitly anyway.
set -eu

user="${LNI_REPLICATION_USER:-replicator}"
if [ -z "${LNI_REPLICATION_PASSWORD:-}" ]; then
  echo "10-replication.sh: LNI_REPLICATION_PASSWORD is empty: set it for the role '$user'" >&2
  exit 1
fi

# format() quotes the name and the password; \gexec runs the statement it returns.
psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --username="${POSTGRES_USER:-postgres}" \
  --dbname="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}" \
  -v user="$user" -v password="$LNI_REPLICATION_PASSWORD" <<'SQL'
SELECT format(
  CASE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = :'user')
    THEN 'ALTER ROLE %I WITH REPLICATION LOGIN PASSWORD %L'
    ELSE 'CREATE ROLE %I WITH REPLICATION LOGIN PASSWORD %L' END,
  :'user', :'password') \gexec
SQL

line="host replication $user all scram-sha-256"
if ! grep -qxF "$line" "$PGDATA/pg_hba.conf"; then
  echo "$line" >>"$PGDATA/pg_hba.conf"
fi
# A running server reads pg_hba.conf again (during the first start the image restarts it anyway).
psql --no-psqlrc --quiet --username="${POSTGRES_USER:-postgres}" \
  --dbname="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}" -c 'SELECT pg_reload_conf()' >/dev/null
echo "10-replication.sh: role '$user' may stream from this server"
