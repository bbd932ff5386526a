#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# get-deb-kernel.sh deb61|deb612: fetch Debian's stock kernel image by
# package name (apt-get download, no install: /boot and the host's modules
# stay untouched), unpack it into the cache and print the unpacked root,
# which holds boot/vmlinuz-<kver> and lib/modules/<kver>/.
#
#   deb61   linux-image-amd64       (bookworm: 6.1)
#   deb612  linux-image-6.12-amd64  (bookworm-security: 6.12)
#
# Exit 77 when apt offers no such package here.

set -euo pipefail
. "$(dirname "$0")/common.sh"

case "${1:-}" in
deb61)	meta=linux-image-amd64 ;;
deb612)	meta=linux-image-6.12-amd64 ;;
*)	die "usage: $0 deb61|deb612" ;;
esac

pkg=$(apt-cache depends "$meta" 2>/dev/null |
      awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
ver=${pkg:+$(apt_candidate "$pkg")}
if [ -z "$pkg" ] || [ -z "$ver" ]; then
	log "apt offers no $meta here"
	exit 77
fi

root=$(cache_dir "deb/${pkg}_$ver")
if [ ! -e "$root/.bpfwd-unpacked" ]; then
	debs=$(cache_dir debs)
	log "apt-get download $pkg=$ver"
	deb=$(cd "$debs" && ls "${pkg}_"*.deb 2>/dev/null | head -1) || true
	if [ -z "$deb" ]; then
		(cd "$debs" && apt-get download -q "$pkg=$ver" >&2) || {
			log "apt-get download $pkg failed"
			exit 77
		}
		deb=$(cd "$debs" && ls "${pkg}_"*.deb | head -1)
	fi
	dpkg-deb -x "$debs/$deb" "$root"
	touch "$root/.bpfwd-unpacked"
	rm -f "$debs/$deb"
fi
printf '%s\n' "$root"
