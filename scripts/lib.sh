# Shared by scripts/setup and .ci/run. Source it; do not run it.
# Installs what OneLog's build and tests need on Debian 12, idempotently.

APT_PACKAGES=(mariadb-server mariadb-client mariadb-test sysbench python3-venv build-essential pkg-config fonts-dejavu-core
    openjdk-17-jdk-headless curl ca-certificates)

# mysql-binlog-connector-java (the binlog client inside Debezium) for
# tests/test_cdc_java.py, from Maven Central into a gitignored cache, pinned
# by the SHA-256 of the published jar (Maven Central's .sha1 is checked too).
BINLOG_CONNECTOR_VERSION=0.30.1
BINLOG_CONNECTOR_SHA256=6f3976798fe6b4cb7f9c13f194c59508333c5761626e37b53e20c6a3fca7d14d

need_apt() {
    local p missing=()
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    printf '%s\n' "${missing[@]}"
}

install_apt() {
    local missing
    missing=$(need_apt)
    if [ -z "$missing" ]; then
        echo "apt: all packages present"
        return 0
    fi
    local SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
    # Never start the distribution's MariaDB service: the tests start their own mariadbd.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
        $SUDO chmod 755 /usr/sbin/policy-rc.d
        POLICY_RC_ADDED=1
    fi
    echo "apt: installing" $missing
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
    if [ "${POLICY_RC_ADDED:-0}" = 1 ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
    # In case a service got started anyway (no policy-rc.d support), stop it.
    if pgrep -x mariadbd >/dev/null 2>&1 && [ -e /run/mysqld/mysqld.pid ]; then
        $SUDO kill "$(cat /run/mysqld/mysqld.pid)" 2>/dev/null || true
    fi
}

pick_python() {
    local py
    for py in python3.11 python3 /usr/bin/python3; do
        if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys, venv, ensurepip; assert sys.version_info >= (3, 9)' 2>/dev/null; then
            command -v "$py"
            return 0
        fi
    done
    echo "no python3 (>= 3.9) with venv/ensurepip found" >&2
    return 1
}

install_venv() {
    local req="$REPO/tests/requirements.txt" stamp="$REPO/.venv/.requirements.installed"
    if [ -x "$REPO/.venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$req" "$stamp"; then
        echo "venv: up to date"
        return 0
    fi
    if [ ! -x "$REPO/.venv/bin/python" ]; then
        local py
        py=$(pick_python)
        "$py" -m venv "$REPO/.venv"
    fi
    "$REPO/.venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
    cp "$req" "$stamp"
    echo "venv: installed tests/requirements.txt"
}

install_java_deps() {
    local dir="$REPO/.cache/java" jar="mysql-binlog-connector-java-$BINLOG_CONNECTOR_VERSION.jar"
    local url="https://repo1.maven.org/maven2/com/zendesk/mysql-binlog-connector-java/$BINLOG_CONNECTOR_VERSION/$jar"
    if [ -f "$dir/$jar" ] && echo "$BINLOG_CONNECTOR_SHA256  $dir/$jar" | sha256sum -c --status; then
        echo "java: $jar present"
        return 0
    fi
    mkdir -p "$dir"
    curl -fsSL --retry 3 -o "$dir/$jar.part" "$url"
    local published
    published=$(curl -fsSL --retry 3 "$url.sha1" | cut -c1-40)
    if ! echo "$published  $dir/$jar.part" | sha1sum -c --status \
        || ! echo "$BINLOG_CONNECTOR_SHA256  $dir/$jar.part" | sha256sum -c --status; then
        rm -f "$dir/$jar.part"
        echo "java: $url does not match its published SHA-1 or the pinned SHA-256" >&2
        return 1
    fi
    mv "$dir/$jar.part" "$dir/$jar"
    echo "java: downloaded $jar"
}
