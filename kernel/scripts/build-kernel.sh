#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the patched vmtest kernel: Debian's linux-source-6.12 (by package
# name), kernel/patches/ in series order, tinyconfig + kernel/vmtest.config,
# make -j$JOBS bzImage. Prints the path of the bzImage on stdout.
#
# The image is cached under $VMTEST_CACHE/kernels/<key>, the key hashing
# the source version, the patches, the config fragment, this script and
# whether pahole is there (BTF). The unpacked source and the object tree
# are kept per source version, so a change of patches swaps them in place
# (git apply -R of the old set, git apply of the new) and rebuilds only
# what they touch.
#
# Exit 0 with the path, 77 when the source cannot be had here (the caller
# turns that into a TAP skip), 1 on a build failure.

set -euo pipefail
. "$(dirname "$0")/common.sh"

SRC_PKG=${SRC_PKG:-linux-source-6.12}
PATCHDIR=$KDIR/patches
FRAGMENT=$KDIR/vmtest.config

if ! dpkg-query -W -f='${Status}' "$SRC_PKG" 2>/dev/null |
     grep -q 'install ok installed'; then
	if [ -z "$(apt_candidate "$SRC_PKG")" ]; then
		log "$SRC_PKG is not offered by apt here"
		exit 77
	fi
	apt_ensure "$SRC_PKG" || exit 77
fi
apt_ensure flex bison bc libelf-dev cpio xz-utils >/dev/null ||
	die "kernel build tools missing"
command -v pahole >/dev/null || apt_ensure dwarves >/dev/null || true

ver=$(dpkg-query -W -f='${Version}' "$SRC_PKG")
tarball=$(dpkg-query -L "$SRC_PKG" | grep -m1 '/usr/src/linux-source-.*\.tar\.xz$') ||
	die "$SRC_PKG has no tarball"

mapfile -t patches < <(grep -v '^[[:space:]]*\(#\|$\)' "$PATCHDIR/series" |
		       sed "s|^|$PATCHDIR/|")
btf=no
command -v pahole >/dev/null && btf=yes
key=$( { printf '%s %s btf=%s\n' "$SRC_PKG" "$ver" "$btf"
	 hash_files "$FRAGMENT" "$0" "${patches[@]}"; } | sha256sum | cut -c1-16)

kout=$(cache_dir "kernels/$SRC_PKG-$key")
if [ -s "$kout/bzImage" ]; then
	log "kernel $SRC_PKG $ver ${#patches[@]} patches: cached ($key)"
	printf '%s\n' "$kout/bzImage"
	exit 0
fi

srcroot=$(cache_dir src)
src=$srcroot/$SRC_PKG-$ver
obj=$(cache_dir "build/$SRC_PKG-$ver")

if [ ! -e "$src/.bpfwd-unpacked" ]; then
	log "unpacking $tarball"
	rm -rf "$src" "$srcroot/.unpack"
	mkdir -p "$srcroot/.unpack"
	tar -C "$srcroot/.unpack" -xf "$tarball"
	mv "$srcroot/.unpack"/linux-source-* "$src"
	rmdir "$srcroot/.unpack"
	: >"$src/.bpfwd-applied.patch"
	touch "$src/.bpfwd-unpacked"
fi

# Swap the applied patch set for the wanted one.
want=$(mktemp)
trap 'rm -f "$want"' EXIT
[ ${#patches[@]} -eq 0 ] || cat "${patches[@]}" >"$want"
if ! cmp -s "$want" "$src/.bpfwd-applied.patch"; then
	if [ -s "$src/.bpfwd-applied.patch" ]; then
		log "reverting the previous patch set"
		(cd "$src" && git apply -R -p1 "$src/.bpfwd-applied.patch") ||
			die "cannot revert old patches in $src; remove it"
		: >"$src/.bpfwd-applied.patch"
	fi
	for p in "${patches[@]}"; do
		log "applying ${p##*/}"
		(cd "$src" && git apply -p1 "$p") || die "${p##*/} does not apply"
	done
	cp "$want" "$src/.bpfwd-applied.patch"
fi

log "configuring (tinyconfig + ${FRAGMENT##*/}, BTF: $btf)"
frag=$obj/.bpfwd-fragment
if [ "$btf" = yes ]; then
	cp "$FRAGMENT" "$frag"
else
	grep -v 'DEBUG_INFO' "$FRAGMENT" >"$frag"
fi
make -s -C "$src" O="$obj" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
make -s -C "$src" O="$obj" olddefconfig >/dev/null
missing=$(grep -o '^CONFIG_[A-Z0-9_]*=y' "$frag" |
	  while read -r l; do grep -qx "$l" "$obj/.config" || echo "$l"; done)
[ -z "$missing" ] || die "config lines dropped by Kconfig: $missing"

blog=$obj/build.log
log "building $SRC_PKG $ver with ${#patches[@]} patches, -j$JOBS (log: $blog)"
start=$(date +%s)
if ! make -C "$src" O="$obj" -j"$JOBS" bzImage >"$blog" 2>&1; then
	grep -E 'error|Error' "$blog" | head -20 >&2
	die "kernel build failed, see $blog"
fi
log "built in $(( $(date +%s) - start ))s"
cp "$obj/arch/x86/boot/bzImage" "$kout/bzImage.tmp"
cp "$obj/.config" "$kout/config"
mv "$kout/bzImage.tmp" "$kout/bzImage"

# Keep the three newest images.
ls -dt "$VMTEST_CACHE/kernels/$SRC_PKG"-* 2>/dev/null | tail -n +4 |
	xargs -r rm -rf
printf '%s\n' "$kout/bzImage"
