#!/usr/bin/env bash
# A private PostgreSQL server for the tests and for local runs: a cluster in a folder of its own,
# listening only on a Unix socket in that folder (no TCP port), with trust authentication.
#
#   scripts/postgres-server.sh start [DIR]   creates and starts the server, prints its connection URL
#   scripts/postgres-server.sh env [DIR]     prints `export OBJECTGRAPH_POSTGRES_URL=…` for a running server
#   scripts/postgres-server.sh stop [DIR]    stops the server and removes DIR
#
# DIR defaults to $OBJECTGRAPH_POSTGRES_DIR, else /tmp/objectgraph-postgres-$(id -un). PostgreSQL
# refuses to run as root: as root the server runs as $OBJECTGRAPH_POSTGRES_USER (default `postgres`,
# the user the `postgresql` package creates), which gets DIR. The binaries come from
# $OBJECTGRAPH_POSTGRES_BIN, else `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin.
set -euo pipefail

command=${1:-}
dir=${2:-${OBJECTGRAPH_POSTGRES_DIR:-/tmp/objectgraph-postgres-$(id -un)}}
user=${OBJECTGRAPH_POSTGRES_USER:-postgres}

fail() { echo "postgres-server.sh: $*" >&2; exit 1; }

# Close every descriptor but standard input, output and error: the server would inherit them, and a
# caller that waits for the end of one (a pipe, Foundation's Process) would wait as long as it runs.
for fd in /proc/$$/fd/*; do
  fd=${fd##*/}
  if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

find_bin() {
  local candidate
  for candidate in "${OBJECTGRAPH_POSTGRES_BIN:-}" "$(pg_config --bindir 2>/dev/null || true)" \
    $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -n "$candidate" ] && [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
      echo "$candidate"; return
    fi
  done
  fail "no initdb and pg_ctl found: install the postgresql package, or set OBJECTGRAPH_POSTGRES_BIN"
}

# Runs a server command as the server's user: as root, as $user; otherwise as ourselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

url() { echo "postgresql://postgres@/postgres?host=$dir"; }

case "$command" in
  start)
    bin=$(find_bin)
    case "$dir" in /*) ;; *) fail "DIR must be an absolute path: $dir" ;; esac
    # A Unix socket path holds at most 107 bytes: DIR/.s.PGSQL.5432 must fit.
    [ ${#dir} -le 90 ] || fail "DIR is too long for a Unix socket path (at most 90 bytes): $dir"
    if [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      url; exit 0
    fi
    if [ "$(id -u)" = 0 ]; then
      id -u "$user" >/dev/null 2>&1 \
        || fail "running as root, and the user '$user' to run the server as does not exist: create it, or set OBJECTGRAPH_POSTGRES_USER"
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown "$user" "$dir"
    chmod 700 "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; fail "initdb failed (log above)"; }
    fi
    # No TCP (listen_addresses empty); the socket in DIR; durability off: a test server's data is
    # thrown away.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
      start >/dev/null || { cat "$dir/server.log" >&2; fail "the server did not start (log above)"; }
    url
    ;;
  env)
    [ -S "$dir/.s.PGSQL.5432" ] || fail "no server runs in $dir: run '$0 start $dir' first"
    echo "export OBJECTGRAPH_POSTGRES_URL='$(url)'"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      bin=$(find_bin)
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    # Only a folder this script made (it holds the cluster or nothing else) is removed.
    if [ -d "$dir" ] && { [ -d "$dir/data" ] || [ -z "$(ls -A "$dir")" ]; }; then rm -rf "$dir"; fi
    ;;
  *)
    echo "usage: $0 start|env|stop [DIR]" >&2
    exit 2
    ;;
esac
