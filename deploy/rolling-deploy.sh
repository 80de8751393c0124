#!/usr/bin/env bash
# A rolling deploy of the storefront behind nginx, one instance at a time, dropping nothing.
# The procedure and its reasons are in deploy/README.md. By default it drives
# deploy/compose.yaml with podman compose; each step is a setting, so any supervisor works.
#
#   deploy/rolling-deploy.sh NGINX_CONF NAME=ADDRESS...
#
# NAME is the instance as the commands below know it (shop1); ADDRESS is its `server` entry in
# NGINX_CONF's upstream (shop1:8080). For each instance in turn:
#   1. its `server` line gets `down` and nginx reloads: new requests go to the others, while
#      nginx's old workers finish the requests they were proxying;
#   2. it is stopped with SIGTERM: /readyz turns 503, in-flight requests finish, it exits;
#   3. it is started on the new release, and waited for until /readyz answers 200;
#   4. `down` is taken off and nginx reloads: it gets its share again.
# Before the first, the new release's migrations run once (MIGRATE): expand steps only, which
# the release still serving tolerates.
#
# Settings (environment), each a shell command; $INSTANCE and $ADDRESS are set for the last three:
#   MIGRATE         default: podman compose run --rm shop1 migrate
#   RELOAD_NGINX    default: podman compose exec -T nginx nginx -s reload
#   STOP_INSTANCE   default: podman compose stop -t 30 "$INSTANCE"    (must return once it exited)
#   START_INSTANCE  default: podman compose up -d --no-deps "$INSTANCE"
#   CHECK_READY     default: podman compose exec -T nginx curl -fsS --max-time 2 -o /dev/null "http://$ADDRESS/readyz"
#   READY_TIMEOUT   seconds a new instance has to become ready, default 120
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 64
fi
conf=$1
shift
[ -w "$conf" ] || { echo "rolling-deploy: $conf is not a file this user can write" >&2; exit 64; }
for spec in "$@"; do
    case $spec in
        *=*) address=${spec#*=}; grep -qE "^[[:space:]]*server[[:space:]]+${address//./\\.}([[:space:]]|;)" "$conf" \
                 || { echo "rolling-deploy: $conf has no upstream server ${spec#*=}" >&2; exit 64; } ;;
        *) echo "rolling-deploy: $spec is not NAME=ADDRESS" >&2; exit 64 ;;
    esac
done

MIGRATE=${MIGRATE:-podman compose run --rm shop1 migrate}
RELOAD_NGINX=${RELOAD_NGINX:-podman compose exec -T nginx nginx -s reload}
STOP_INSTANCE=${STOP_INSTANCE:-'podman compose stop -t 30 "$INSTANCE"'}
START_INSTANCE=${START_INSTANCE:-'podman compose up -d --no-deps "$INSTANCE"'}
CHECK_READY=${CHECK_READY:-'podman compose exec -T nginx curl -fsS --max-time 2 -o /dev/null "http://$ADDRESS/readyz"'}
READY_TIMEOUT=${READY_TIMEOUT:-120}

say() { echo "rolling-deploy: $(date -u +%H:%M:%S) $*"; }

# Rewrites the file in place (not a new file): a container that mounts it sees the change. The
# server line must end in `;` (no comment after it); the edit is checked before nginx reloads.
set_down() {
    local address=${1//./\\.} down=$2 edited line
    edited=$(sed -E "/^[[:space:]]*server[[:space:]]+$address([[:space:]]|;)/{s/[[:space:]]+down;/;/; $([ "$down" = 1 ] && echo 's/;[[:space:]]*$/ down;/')}" "$conf")
    line=$(printf '%s\n' "$edited" | grep -E "^[[:space:]]*server[[:space:]]+$address([[:space:]]|;)")
    case $down:$line in
        1:*" down;") ;;
        0:*" down;"*|1:*) echo "rolling-deploy: could not $([ "$down" = 1 ] && echo mark || echo unmark) '$line' in $conf" >&2; exit 1 ;;
    esac
    printf '%s\n' "$edited" > "$conf"
    sh -c "$RELOAD_NGINX"
}

# Whatever step fails, the operator learns which instance was left where.
trap 'status=$?; [ $status -eq 0 ] || say "stopped at ${INSTANCE:-the migration} (exit $status): check that instance, and its line in $conf"' EXIT

say "migrating"
sh -c "$MIGRATE"
for spec in "$@"; do
    export INSTANCE=${spec%%=*} ADDRESS=${spec#*=}
    say "$INSTANCE: out of the upstream"
    set_down "$ADDRESS" 1
    say "$INSTANCE: stopping"
    sh -c "$STOP_INSTANCE"
    say "$INSTANCE: starting the new release"
    sh -c "$START_INSTANCE"
    deadline=$((SECONDS + READY_TIMEOUT))
    until sh -c "$CHECK_READY" 2>/dev/null; do
        if [ $SECONDS -ge $deadline ]; then
            say "$INSTANCE: not ready after $READY_TIMEOUT s; it stays out of the upstream, the others serve"
            exit 1
        fi
        sleep 0.2
    done
    set_down "$ADDRESS" 0
    say "$INSTANCE: ready, back in the upstream"
done
say "done: $# instances replaced"
