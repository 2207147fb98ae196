#!/bin/sh
# The official postgres image's contract, small: POSTGRES_PASSWORD (required), POSTGRES_USER
# (postgres), POSTGRES_DB (the user's name); the cluster is made on the first start only, and
# then the scripts in /docker-entrypoint-initdb.d run against it (*.sh executed, or sourced when
# not executable; *.sql through psql), in name order, while it listens on its socket only.
set -eu

if [ "${1:-}" != postgres ]; then exec "$@"; fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"
export POSTGRES_USER="$user" POSTGRES_DB="$database"

run_init_scripts() {
  for script in /docker-entrypoint-initdb.d/*; do
    case "$script" in
      *.sh)
        echo "docker-entrypoint: running $script"
        if [ -x "$script" ]; then "$script"; else . "$script"; fi
        ;;
      *.sql)
        echo "docker-entrypoint: running $script"
        psql -v ON_ERROR_STOP=1 --username="$user" --dbname="$database" -f "$script"
        ;;
      *) [ ! -e "$script" ] || echo "docker-entrypoint: ignoring $script" ;;
    esac
  done
}

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo 'docker-entrypoint: POSTGRES_PASSWORD must be set (the database is reachable over TCP)' >&2
    exit 1
  fi
  password_file="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb --username="$user" --pwfile="$password_file" --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 -D "$PGDATA"
  rm -f "$password_file"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  # Started on its socket only, so nobody connects before the database and scripts are done.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$database" != postgres ]; then createdb --username="$user" "$database"; fi
  run_init_scripts
  pg_ctl -D "$PGDATA" -m fast -w stop
fi
shift
exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
