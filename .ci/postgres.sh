# A throw-away PostgreSQL for the SQL store tests, sourced by .ci/run (and usable by hand:
# `source .ci/postgres.sh && start_postgres`). start_postgres installs PostgreSQL from Debian's
# packages when it is missing, starts a cluster in a temporary directory on 127.0.0.1 at a free
# port (its socket in that directory too), and exports A2A_TEST_POSTGRES_URL plus the data
# directory and pg_ctl for tests that stop and start it; stop_postgres stops it and removes it.

postgres_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$found" ] && command -v pg_ctl >/dev/null 2>&1; then
        found=$(dirname "$(command -v pg_ctl)")
    fi
    printf '%s' "$found"
}

# Runs a PostgreSQL program as the unprivileged `postgres` user when we are root (the server
# refuses to run as root), as ourselves otherwise.
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
    local bin port
    bin=$(postgres_bin)
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        bin=$(postgres_bin)
    fi
    A2A_POSTGRES_DIR=$(mktemp -d /tmp/a2a-postgres.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres "$A2A_POSTGRES_DIR"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_postgres "$bin/initdb" -D "$A2A_POSTGRES_DIR/data" -U a2a -A trust --no-sync >/dev/null
    # In the cluster's own configuration, so a test that stops and starts it gets the same one.
    printf "listen_addresses = '127.0.0.1'\nport = %s\nunix_socket_directories = '%s'\nmax_connections = 400\n" \
        "$port" "$A2A_POSTGRES_DIR" | as_postgres tee -a "$A2A_POSTGRES_DIR/data/postgresql.conf" >/dev/null
    as_postgres "$bin/pg_ctl" -D "$A2A_POSTGRES_DIR/data" -l "$A2A_POSTGRES_DIR/log" -w -s start
    export A2A_TEST_POSTGRES_URL="postgres://a2a@127.0.0.1:$port/postgres"
    export A2A_TEST_POSTGRES_DATA="$A2A_POSTGRES_DIR/data"
    export A2A_TEST_PG_CTL="$bin/pg_ctl"
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

stop_postgres() {
    if [ -n "${A2A_POSTGRES_DIR:-}" ] && [ -d "$A2A_POSTGRES_DIR" ]; then
        as_postgres "$A2A_TEST_PG_CTL" -D "$A2A_POSTGRES_DIR/data" -m immediate -s stop || true
        rm -rf "$A2A_POSTGRES_DIR"
        A2A_POSTGRES_DIR=""
    fi
}
