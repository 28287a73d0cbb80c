#!/usr/bin/env bash
# Install Tablekeeper as an appliance on Raspberry Pi OS (Bookworm, 64-bit).
#
#   hardware/pi/install.sh [--dry-run] [--demo] [--start] [--venv DIR] [--data-dir DIR] [--config FILE]
#
# Run it from a clone of the repository as the user the station should run as (or as root with
# --user NAME); it uses sudo for the system steps. The venv and everything root runs belong to root. --dry-run prints every step (these and the Python installer's) and changes nothing.
# After the venv is made, every Python step runs on the venv's interpreter; the system python3 only makes the venv.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dry_run=0
venv="/opt/tablekeeper/venv"
station_user="${SUDO_USER:-$(id -un)}"
python_args=()

usage() { sed -n '2,7s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --demo|--start) python_args+=("$1") ;;
        --venv) venv="${2:?--venv needs a directory}"; shift ;;
        --data-dir|--config|--watchdog-s|--counter-id) python_args+=("$1" "${2:?$1 needs a value}"); shift ;;
        --user) station_user="${2:?--user needs a name}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

if [[ "$station_user" == root && $dry_run -eq 1 ]]; then
    echo "install.sh: as root an install needs --user NAME; this plan shows the default station user, pi" >&2
    station_user=pi
elif [[ "$station_user" == root ]]; then
    echo "install.sh: run it as the station's user (it calls sudo itself), or pass --user NAME" >&2
    exit 2
fi

steps=(
    "Install system packages: python3-venv python3-dev python3-pip i2c-tools"
    "Create the virtualenv $venv, owned by root (the station user can run it, not change it)"
    "Build the Tablekeeper wheel from $repo as $station_user with the venv's Python (no root needed to build)"
    "Install the wheel with its 'pi' extra (lgpio) into $venv; put 'tablekeeper' on the PATH"
)
step() { # step NUMBER: print the step's title, numbered among the shell steps
    echo "[shell $1/${#steps[@]}] ${steps[$(($1 - 1))]}"
}
run() { # run COMMAND...: echo it; execute it unless this is a dry run
    echo "    run: $*"
    if [[ $dry_run -eq 0 ]]; then "$@"; fi
}
priv() { # priv COMMAND...: run with root's rights (through sudo unless we are root already)
    if [[ "$(id -u)" -eq 0 ]]; then run "$@"; else run sudo "$@"; fi
}
as_user() { # as_user COMMAND...: run as the station user (directly when we already are that user)
    if [[ "$(id -un)" == "$station_user" ]]; then run "$@"
    elif [[ "$(id -u)" -eq 0 ]] && command -v runuser >/dev/null; then run runuser -u "$station_user" -- "$@"
    else run sudo -u "$station_user" "$@"; fi
}

if [[ $dry_run -eq 1 ]]; then
    echo "Dry run: nothing is changed. The install script would:"
elif [[ "$(uname -m)" != aarch64 ]] || ! grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; then
    echo "install.sh: warning: this is not 64-bit Raspberry Pi OS Bookworm; continuing anyway" >&2
fi

step 1
priv apt-get update
priv apt-get install -y python3-venv python3-dev python3-pip i2c-tools
step 2
priv install -d -o root -g root -m 0755 "$venv"
priv python3 -m venv "$venv"
step 3
# Building runs the project's build code, so it runs unprivileged; root only installs the built wheel,
# which executes nothing, into a venv the station user cannot write.
if [[ $dry_run -eq 1 ]]; then
    wheel_dir="/tmp/tablekeeper-wheel.XXXXXX"
    echo "    run: mktemp -d -t tablekeeper-wheel.XXXXXX (private to $station_user)"
elif [[ "$(id -un)" == "$station_user" ]]; then
    wheel_dir=$(mktemp -d -t tablekeeper-wheel.XXXXXX)
elif [[ "$(id -u)" -eq 0 ]] && command -v runuser >/dev/null; then
    wheel_dir=$(runuser -u "$station_user" -- mktemp -d -t tablekeeper-wheel.XXXXXX)
else
    wheel_dir=$(sudo -u "$station_user" mktemp -d -t tablekeeper-wheel.XXXXXX)
fi
as_user "$venv/bin/python" -m pip wheel --no-deps --quiet --wheel-dir "$wheel_dir" "$repo"
step 4
wheel="$wheel_dir/tablekeeper-*.whl"
if [[ $dry_run -eq 0 ]]; then
    wheel=$(ls "$wheel_dir"/tablekeeper-*.whl)
fi
priv "$venv/bin/pip" install --quiet --upgrade pip
priv "$venv/bin/pip" install --quiet --upgrade "$wheel[pi]"
priv ln -sf "$venv/bin/tablekeeper" /usr/local/bin/tablekeeper

installer_args=(install --user "$station_user" --venv "$venv"
                --station-config-source "$repo/hardware/station.toml" "${python_args[@]}")
if [[ $dry_run -eq 1 ]]; then
    echo "then the Python installer, as root ($venv/bin/python -m tablekeeper.appliance ${installer_args[*]}):"
    # The venv may not exist yet: list the installer's steps with this clone's code on an interpreter that
    # has the project's dependencies (an installed venv's, or an active venv's python3), or say what to install.
    missing=""
    for python in "$venv/bin/python" python3; do
        if found=$(PYTHONPATH="$repo/host" "$python" -c 'import tablekeeper.appliance.commands' 2>&1); then
            PYTHONPATH="$repo/host" exec "$python" -m tablekeeper.appliance "${installer_args[@]}" --dry-run
        fi
        missing=${missing:-$(sed -n "s/^ModuleNotFoundError: No module named '\([^']*\)'.*/\1/p" <<<"$found")}
    done
    echo "    (not listed here: the installer's steps come from the project's code, and python3 lacks its" \
         "dependency ${missing:-modules}; the real install runs it in the venv. To list them now: python3 -m venv" \
         "/tmp/tk && /tmp/tk/bin/pip install '$repo' && PATH=/tmp/tk/bin:\$PATH $0 --dry-run)"
elif [[ "$(id -u)" -eq 0 ]]; then
    "$venv/bin/python" -m tablekeeper.appliance "${installer_args[@]}"
else
    sudo "$venv/bin/python" -m tablekeeper.appliance "${installer_args[@]}"
fi
