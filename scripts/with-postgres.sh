#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster, and stops the cluster when the command
# ends, even when it fails.
#
#   scripts/with-postgres.sh COMMAND [ARGS…]
#
# The cluster is Debian's PostgreSQL (installed if missing): initdb in a new folder under
# .build/, pg_ctl on a free loopback port, password authentication, fsync off (it is thrown
# away), TLS with a certificate from a throwaway CA (scripts/test-ca.sh). The command gets:
#   TESSERA_POSTGRES_URL       postgres://postgres:…@127.0.0.1:PORT/tessera?sslmode=disable, a
#                              fresh database; unencrypted, as the benchmarks compare it
#   TESSERA_POSTGRES_TLS_URL   the same with ?sslmode=verify-full&sslrootcert=…/ca.crt
#   TESSERA_POSTGRES_CLUSTER   the cluster's folder
#   TESSERA_POSTGRES_CTL       a command that takes stop or start: for tests of an outage
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGS…]" >&2; exit 2; }

scripts/install-deps.sh postgres >&2
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

# PostgreSQL refuses to run as root: then the cluster belongs to the postgres user, which must be
# able to reach it (a clone in a private temporary folder is not reachable: then /tmp is used).
mkdir -p .build
cluster=$(mktemp -d "$PWD/.build/postgres.XXXXXX")
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  as_owner=(runuser -u postgres --)
  chmod 755 "$cluster"
  if ! "${as_owner[@]}" test -x "$cluster"; then
    rmdir "$cluster"
    cluster=$(mktemp -d /tmp/tessera-postgres.XXXXXX)
    chmod 755 "$cluster"
  fi
  chown postgres "$cluster"
fi

password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
# A port below the kernel's ephemeral range, which the loopback connections of the steps beside
# this one cannot take while initdb runs; its lock, held while this script runs, keeps every other
# test's port off it too (Tests/Support/ports.py).
read -r port lock < <(python3 Tests/Support/ports.py)
exec 9> "$lock"
flock -n 9 || { echo "$0: port $port was taken while it was chosen" >&2; exit 1; }
printf '%s\n' "$password" > "$cluster/password"
[ ${#as_owner[@]} -eq 0 ] || chown postgres "$cluster/password"

ctl="$cluster/ctl"
cat > "$ctl" <<CTL
#!/usr/bin/env bash
# stop | start | restart-fast | restart-immediate: the throwaway cluster at $cluster
set -euo pipefail
# From a folder every user can enter: the server looks its programs up from where it starts.
cd /
# The server outlives this script: it must not hold the caller's pipes open (a reader waiting for
# their end of file would wait for the server), so only the standard streams go to it, as /dev/null.
for fd in \$(ls /proc/\$\$/fd); do [ "\$fd" -gt 2 ] && eval "exec \$fd>&-" 2>/dev/null || true; done
case "\$1" in
  start) ${as_owner[*]} "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/log" -w -t 30 start </dev/null >/dev/null 2>&1 \\
    || { echo "\$0: PostgreSQL did not start; the end of its log:" >&2; tail -n 20 "$cluster/log" >&2; exit 1; } ;;
  stop) ${as_owner[*]} "$bin/pg_ctl" -D "$cluster/data" -m fast -w stop >/dev/null ;;
  restart-fast|restart-immediate)
    ${as_owner[*]} "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/log" -m "\${1#restart-}" -w -t 30 restart </dev/null >/dev/null 2>&1 ;;
  *) echo "usage: \$0 start|stop|restart-fast|restart-immediate" >&2; exit 2 ;;
esac
CTL
chmod 755 "$ctl"

stop_cluster() {
  [ -f "$cluster/data/postmaster.pid" ] && "$ctl" stop || true
  rm -rf "$cluster"
}
trap stop_cluster EXIT
# A signal ends the script through its EXIT trap, so the cluster is stopped then too.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# From /, which the postgres user can enter even when the clone is in a private folder.
(cd / && "${as_owner[@]}" "$bin/initdb" -D "$cluster/data" -U postgres -E UTF8 --no-locale \
  --auth-host=scram-sha-256 --auth-local=trust --pwfile="$cluster/password" >/dev/null)
# TLS: the server's certificate and key in its data folder, readable by the server alone.
scripts/test-ca.sh "$cluster/tls" >/dev/null
cp "$cluster/tls/server.crt" "$cluster/tls/server.key" "$cluster/data/"
[ ${#as_owner[@]} -eq 0 ] || chown postgres "$cluster/data/server.crt" "$cluster/data/server.key"
# TCP on loopback only: no Unix socket, whose path would be too long under a deep checkout.
cat >> "$cluster/data/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
# Statement counts for whoever asks (TechEmpower's verifier counts a route's queries through it);
# its view answers only when the library is loaded at start, and loading it costs a cluster little.
shared_preload_libraries = 'pg_stat_statements'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
CONF
"$ctl" start
PGPASSWORD="$password" "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c "CREATE DATABASE tessera" >/dev/null

export TESSERA_POSTGRES_URL="postgres://postgres:$password@127.0.0.1:$port/tessera?sslmode=disable"
# The CA's path percent-encoded: a checkout's path may hold a space, a "&" or a "%".
ca_in_url=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$cluster/tls/ca.crt")
export TESSERA_POSTGRES_TLS_URL="postgres://postgres:$password@127.0.0.1:$port/tessera?sslmode=verify-full&sslrootcert=$ca_in_url"
export TESSERA_POSTGRES_CLUSTER="$cluster"
export TESSERA_POSTGRES_CTL="$ctl"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (cluster in $cluster)" >&2
status=0
"$@" || status=$?
exit $status
