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
# It also extracts the uncompressed vmlinux next to it, which QEMU boots
# through the PVH entry point: Debian's 6.1.0-57 bzImage hangs in its
# decompressor under QEMU 7.2 TCG (nothing after "Probing EDD"), while
# its vmlinux boots. The caller falls back to vmlinuz when there is none.
#
# Exit 77 when apt offers no such package here.

set -euo pipefail
. "$(dirname "$0")/common.sh"

# extract_vmlinux BZIMAGE OUT: the ELF kernel inside an xz, zstd or gzip
# compressed bzImage, or nothing.
extract_vmlinux()
{
	local img=$1 out=$2 magic cmd off

	for magic in 'xz:\xfd7zXZ\x00' 'zstd:\x28\xb5\x2f\xfd' 'gzip:\x1f\x8b\x08'; do
		cmd=${magic%%:*}
		for off in $(LC_ALL=C grep -aboP "${magic#*:}" "$img" | cut -d: -f1); do
			tail -c +$((off + 1)) "$img" | "$cmd" -dc 2>/dev/null >"$out.tmp" || true
			if [ "$(head -c 4 "$out.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
				mv "$out.tmp" "$out"
				return 0
			fi
		done
	done
	rm -f "$out.tmp"
}

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
	extract_vmlinux "$(ls "$root"/boot/vmlinuz-* | head -1)" "$root/vmlinux"
	touch "$root/.bpfwd-unpacked"
	rm -f "$debs/$deb"
fi
printf '%s\n' "$root"
