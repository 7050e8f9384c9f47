#!/bin/sh
# Install a Debian package that `make test` needs and the machine lacks, saying so first:
#   debian-package.sh PACKAGE NAME COMMAND WHY [HINT]
# PACKAGE is installed with apt-get (as root, or with `sudo -n`); NAME is what the messages call
# it, COMMAND what is found on PATH afterwards, WHY what needs it, HINT an alternative given when
# nothing can be installed. Its messages start with "make:" (INSTALLER_SAYS names another
# caller). While another package install holds dpkg's lock, apt-get waits for it
# up to APT_LOCK_WAIT seconds (DPkg::Lock::Timeout; default 600) instead of failing at once, and
# `apt-get update`, which that option does not make wait, is tried again until then.
set -u
package=$1 name=$2 command=$3 why=$4 hint=${5:-}
wait=${APT_LOCK_WAIT:-600}
who=${INSTALLER_SAYS:-make}
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    sudo="" how="apt-get"
elif sudo -n true 2>/dev/null && command -v apt-get >/dev/null; then
    sudo="sudo -n env" how="sudo apt-get"
else
    echo "$who: $why need $name, and it cannot be installed here (no root, no sudo, no" \
        "apt-get): install the $package package$hint" >&2
    exit 1
fi
echo "$who: $name is missing; installing the $package package with $how ($why)"
echo "$who: (if another package install is running, apt-get waits up to $wait s for it)"
DEBIAN_FRONTEND=noninteractive
export DEBIAN_FRONTEND
apt="apt-get -o DPkg::Lock::Timeout=$wait"
# apt-get update takes the package lists' lock, for which DPkg::Lock::Timeout does not wait
# (apt 2.6 fails at once: "Could not get lock /var/lib/apt/lists/lock"): while another update
# holds it, try again every APT_LOCK_RETRY seconds (default 5), up to APT_LOCK_WAIT in all.
retry=${APT_LOCK_RETRY:-5}
update() {
    waited=0
    while :; do
        # shellcheck disable=SC2086  # $sudo and $apt are word lists
        if out=$($sudo $apt update -qq 2>&1); then
            [ -n "$out" ] && printf '%s\n' "$out"
            return 0
        fi
        case $out in
            *"Could not get lock"*) ;;
            *) printf '%s\n' "$out" >&2; return 1 ;;
        esac
        if [ "$waited" -ge "$wait" ]; then
            printf '%s\n' "$out" >&2
            echo "$who: apt's lock was still held after $wait s; try again later" >&2
            return 1
        fi
        [ "$waited" = 0 ] && echo "$who: another package update holds apt's lock;" \
            "waiting for it (up to $wait s)"
        sleep "$retry"
        waited=$((waited + (retry > 0 ? retry : 1)))
    done
}
# shellcheck disable=SC2086  # $sudo and $apt are word lists
update \
    && $sudo ${sudo:+DEBIAN_FRONTEND=noninteractive} $apt install -y -qq "$package" \
    && echo "$who: installed $(command -v "$command" || echo "$command")"
