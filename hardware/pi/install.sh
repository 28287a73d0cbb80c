#!/usr/bin/env bash
# Install Tablekeeper as an appliance on Raspberry Pi OS (Bookworm, 64-bit).
#
#   hardware/pi/install.sh [--dry-run] [--demo] [--start] [--venv DIR] [--data-dir DIR] [--config FILE]
#
# Run it from a clone of the repository as the user the station should run as; it uses sudo for
# the system steps. --dry-run prints every step (these and the Python installer's) and changes nothing.
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

if [[ "$station_user" == root ]]; then
    echo "install.sh: run it as the station's user (it calls sudo itself), or pass --user NAME" >&2
    exit 2
fi

steps=(
    "Install system packages: python3-venv python3-dev i2c-tools"
    "Create the virtualenv $venv (owned by $station_user)"
    "Install the project ($repo) and lgpio into $venv; put 'tablekeeper' on the PATH"
)
step() { # step NUMBER: print the step's title, numbered among the shell steps
    echo "[shell $1/${#steps[@]}] ${steps[$(($1 - 1))]}"
}
run() { # run COMMAND...: echo it; execute it unless this is a dry run
    echo "    run: $*"
    if [[ $dry_run -eq 0 ]]; then "$@"; fi
}

if [[ $dry_run -eq 1 ]]; then
    echo "Dry run: nothing is changed. The install script would:"
elif [[ "$(uname -m)" != aarch64 ]] || ! grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; then
    echo "install.sh: warning: this is not 64-bit Raspberry Pi OS Bookworm; continuing anyway" >&2
fi

step 1
run sudo apt-get update
run sudo apt-get install -y python3-venv python3-dev i2c-tools
step 2
run sudo install -d -o "$station_user" -g "$station_user" "$venv"
run sudo -u "$station_user" python3 -m venv "$venv"
step 3
run sudo -u "$station_user" "$venv/bin/pip" install --upgrade pip
run sudo -u "$station_user" "$venv/bin/pip" install "$repo" lgpio
run sudo ln -sf "$venv/bin/tablekeeper" /usr/local/bin/tablekeeper

installer_args=(install --user "$station_user" --venv "$venv"
                --station-config-source "$repo/hardware/station.toml" "${python_args[@]}")
if [[ $dry_run -eq 1 ]]; then
    # The venv does not exist yet: the installer needs only the standard library, so run it from the clone.
    echo "then the Python installer (sudo $venv/bin/python -m tablekeeper.appliance ${installer_args[*]}):"
    PYTHONPATH="$repo/host" python3 -m tablekeeper.appliance "${installer_args[@]}" --dry-run
else
    sudo "$venv/bin/python" -m tablekeeper.appliance "${installer_args[@]}"
fi
