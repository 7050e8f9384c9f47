#!/bin/sh
# Install a Debian package that `make test` needs and the machine lacks, saying so first:
#   debian-package.sh PACKAGE NAME COMMAND WHY [HINT]
# PACKAGE is installed with apt-get (as root, or with `sudo -n`); NAME is what the messages call
# it, COMMAND what is found on PATH afterwards, WHY what needs it, HINT an alternative given when
# nothing can be installed. While another package install holds dpkg's lock, apt-get waits for it
# up to APT_LOCK_WAIT seconds (DPkg::Lock::Timeout; default 600) instead of failing at once.
set -u
package=$1 name=$2 command=$3 why=$4 hint=${5:-}
wait=${APT_LOCK_WAIT:-600}
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    sudo="" how="apt-get"
elif sudo -n true 2>/dev/null && command -v apt-get >/dev/null; then
    sudo="sudo -n env" how="sudo apt-get"
else
    echo "make: $why need $name, and it cannot be installed here (no root, no sudo, no" \
        "apt-get): install the $package package$hint" >&2
    exit 1
fi
echo "make: $name is missing; installing the $package package with $how ($why)"
echo "make: (if another package install is running, apt-get waits up to $wait s for it)"
DEBIAN_FRONTEND=noninteractive
export DEBIAN_FRONTEND
apt="apt-get -o DPkg::Lock::Timeout=$wait"
# shellcheck disable=SC2086  # $sudo and $apt are word lists
$sudo $apt update -qq \
    && $sudo ${sudo:+DEBIAN_FRONTEND=noninteractive} $apt install -y -qq "$package" \
    && echo "make: installed $(command -v "$command" || echo "$command")"
