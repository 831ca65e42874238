#!/usr/bin/env bash
# The official postgres image's start-up, for the variables docker-compose.yml and operators use: on an
# empty PGDATA, initdb with POSTGRES_USER's password (POSTGRES_PASSWORD or the file POSTGRES_PASSWORD_FILE, required unless
# POSTGRES_HOST_AUTH_METHOD=trust), create POSTGRES_DB, run /docker-entrypoint-initdb.d/*.sh, *.sql,
# *.sql.gz in name order against a server listening on its socket only; then run the server.
set -Eeuo pipefail

if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

# Started as root (e.g. a bind-mounted PGDATA): own the data directory, then run as postgres.
if [ "$1" = 'postgres' ] && [ "$(id -u)" = '0' ]; then
  mkdir -p "$PGDATA"
  chown -R postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

# POSTGRES_PASSWORD_FILE, as the official image reads it: the password from a file (a Compose secret).
if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then
    echo 'error: both POSTGRES_PASSWORD and POSTGRES_PASSWORD_FILE are set (but they are exclusive)' >&2
    exit 1
  fi
  POSTGRES_PASSWORD="$(< "$POSTGRES_PASSWORD_FILE")"
fi

if [ "$1" = 'postgres' ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}"
  : "${POSTGRES_DB:=$POSTGRES_USER}"
  : "${POSTGRES_HOST_AUTH_METHOD:=scram-sha-256}"
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$POSTGRES_HOST_AUTH_METHOD" != 'trust' ]; then
    echo 'error: database is uninitialized and superuser password is not specified.' >&2
    echo '       Set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust, never in production).' >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s\n' "${POSTGRES_PASSWORD:-}" > "$pwfile"
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of flags, as in the official image
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 ${POSTGRES_INITDB_ARGS:-} -D "$PGDATA"
  rm -f "$pwfile"
  printf '\nhost all all all %s\n' "$POSTGRES_HOST_AUTH_METHOD" >> "$PGDATA/pg_hba.conf"
  printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.auto.conf"

  # The init scripts run against a server on its socket only, so nothing connects before they end.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  export PGPASSWORD="${POSTGRES_PASSWORD:-}" PGUSER="$POSTGRES_USER" PGHOST=/var/run/postgresql
  if [ "$POSTGRES_DB" != 'postgres' ]; then
    psql -v ON_ERROR_STOP=1 --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "running $f"; if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
      *.sql) echo "running $f"; psql -v ON_ERROR_STOP=1 --dbname "$POSTGRES_DB" -f "$f" ;;
      *.sql.gz) echo "running $f"; gunzip -c "$f" | psql -v ON_ERROR_STOP=1 --dbname "$POSTGRES_DB" ;;
      *) if [ -e "$f" ]; then echo "ignoring $f"; fi ;;
    esac
  done
  unset PGPASSWORD
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
