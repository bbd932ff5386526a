#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers for the vmtest scripts: cache location, logging, TAP skip,
# apt installs of missing tools. Sourced, not run.

KDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOPDIR=$(cd "$KDIR/.." && pwd)
: "${VMTEST_CACHE:=${XDG_CACHE_HOME:-/var/cache}/bpfwd-vmtest}"
: "${JOBS:=$(nproc 2>/dev/null || echo 2)}"

# Everything human-readable goes to stderr; stdout is TAP.
log() { printf '# %s\n' "$*" >&2; }
die() { printf 'vmtest: %s\n' "$*" >&2; exit 1; }

# cache_dir SUBDIR: create and print a directory inside the cache.
cache_dir()
{
	mkdir -p "$VMTEST_CACHE/$1" || die "cannot create $VMTEST_CACHE/$1"
	printf '%s\n' "$VMTEST_CACHE/$1"
}

# apt_ensure PKG...: install the Debian packages that are missing, when we
# are root and apt can. Returns non-zero when one is still missing.
apt_ensure()
{
	local missing=() p

	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		log "missing packages: ${missing[*]} (not root or no apt-get)"
		return 1
	fi
	log "apt-get install ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >&2 || return 1
}

# apt_candidate PKG: the version apt would install, empty if none.
apt_candidate()
{
	apt-cache policy "$1" 2>/dev/null |
		awk '/Candidate:/ { if ($2 != "(none)") print $2 }'
}

# hash_files FILE...: one short hash over the names and contents.
hash_files()
{
	local f

	for f in "$@"; do
		printf '%s\n' "${f##*/}"
		cat "$f"
	done | sha256sum | cut -c1-16
}
