#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT [DEBROOT]: build the guest's initramfs (gzip cpio).
#
# It holds busybox-static (shell, mount, poweroff), the real ip, tc,
# bpftool, bash and jq with their shared libraries (busybox's ash would
# run its own ip/tc applets, so tests call /usr/sbin/ip and /usr/sbin/tc),
# bpfwd from ../build/ when it has been built, the vmtest BPF object, and
# tests/ (vm/ plus the host suites that make sense in the guest) under
# /bpfwd. With DEBROOT (an unpacked Debian linux-image package) it also
# holds the modules the tests need, decompressed, with their depmod data.

set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: mkinitramfs.sh OUT [DEBROOT]}
debroot=${2:-}
apt_ensure busybox-static cpio iproute2 bpftool jq util-linux ethtool >/dev/null ||
	die "initramfs tools missing"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
r=$work/root
mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,proc,sys,dev,tmp,run,etc,root,var/run}
ln -s ../lib "$r/usr/lib"
mkdir -p "$r/lib/x86_64-linux-gnu"

# copy_bin SRC [DEST]: a binary or library and every library ldd names.
copy_bin()
{
	local src=$1 dst=${2:-$1} so path

	mkdir -p "$r$(dirname "$dst")"
	cp -L "$src" "$r$dst"
	ldd "$src" 2>/dev/null | awk '/=>/ && $3 ~ /^\// { print $1, $3 }' |
	while read -r so path; do
		[ -e "$r/lib/x86_64-linux-gnu/$so" ] ||
			cp -L "$path" "$r/lib/x86_64-linux-gnu/$so"
	done
}

cp /bin/busybox "$r/bin/busybox"
for a in $("$r/bin/busybox" --list); do
	[ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
done
# Real iproute2 and friends shadow the busybox applets by full path.
for b in /usr/sbin/ip /usr/sbin/tc /usr/sbin/bpftool /bin/bash /usr/bin/jq \
	 /usr/bin/nsenter /usr/bin/unshare /usr/sbin/ethtool /usr/sbin/bridge; do
	copy_bin "$b"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$r/lib64/"
# Debian's python3 with the stdlib modules the frame players
# (tests/bridge_frames.py) import, for the bridge suites the lane runs.
if [ -x /usr/bin/python3 ]; then
	copy_bin /usr/bin/python3
	/usr/bin/python3 -S -c 'import ctypes, os, socket, subprocess, sys, time
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None)
    if f:
        print(f)' | sort -u | while read -r f; do
		case "$f" in
		*.so) copy_bin "$f" ;;
		*) mkdir -p "$r$(dirname "$f")" && cp -L "$f" "$r$f" ;;
		esac
	done
fi
[ -d /etc/iproute2 ] && cp -r /etc/iproute2 "$r/etc/"
[ -d /usr/share/iproute2 ] && mkdir -p "$r/usr/share" &&
	cp -r /usr/share/iproute2 "$r/usr/share/"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$r/etc/passwd"
printf 'root:x:0:\n' >"$r/etc/group"

# bpfwd, as built on the host (may not exist yet).
b=$r/bpfwd
mkdir -p "$b/build" "$b/tests" "$b/vmtest"
if [ -x "$TOPDIR/build/bpfwd" ]; then
	cp -a "$TOPDIR/build/." "$b/build/"
	copy_bin "$TOPDIR/build/bpfwd" /usr/sbin/bpfwd
	for so in "$TOPDIR"/build/*.so; do
		[ -e "$so" ] || continue
		copy_bin "$so" "/lib/x86_64-linux-gnu/tc/${so##*/}"
	done
fi
cp -a "$TOPDIR/tests/." "$b/tests/"
[ -f "$TOPDIR/Makefile" ] && cp "$TOPDIR/Makefile" "$b/"

# The lane's own BPF test object (fixed target ifindex, see the source).
obj=$(cache_dir obj)/vmtest_redir.o
srcobj=$TOPDIR/tests/vm/progs/vmtest_redir.bpf.c
if command -v clang >/dev/null; then
	if [ ! -e "$obj" ] || [ "$srcobj" -nt "$obj" ]; then
		clang -O2 -g -target bpf -c "$srcobj" -o "$obj.tmp" && mv "$obj.tmp" "$obj"
	fi
fi
[ -e "$obj" ] && cp "$obj" "$b/vmtest/"

cp "$KDIR/guest/init" "$r/init"
chmod 755 "$r/init"

if [ -n "$debroot" ]; then
	apt_ensure kmod xz-utils >/dev/null || die "kmod (depmod) missing"
	kver=$(ls "$debroot/lib/modules")
	mods="veth bridge dummy sch_ingress cls_bpf act_bpf cls_u32 cls_matchall
	      act_mirred act_gact pktgen"
	mods="$mods 8021q"	# VLAN egress (tests/vm/55-route-vlan.sh)
	[ -e "$debroot/lib/modules/$kver/modules.dep" ] ||
		depmod -b "$debroot" "$kver"
	mkdir -p "$r/lib/modules/$kver"
	for m in $mods; do
		modprobe -d "$debroot" -S "$kver" --show-depends "$m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }'
	done | sort -u | while read -r ko; do
		rel=${ko#"$debroot"}
		mkdir -p "$r$(dirname "$rel")"
		case "$ko" in
		*.xz)	xz -dc "$ko" >"$r${rel%.xz}" ;;
		*.zst)	zstd -qdc "$ko" >"$r${rel%.zst}" ;;
		*)	cp "$ko" "$r$rel" ;;
		esac
	done
	cp "$debroot/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$r/lib/modules/$kver/"
	depmod -b "$r" "$kver"
	printf '%s\n' $mods >"$r/etc/vmtest-modules"
fi

printf '/lib/x86_64-linux-gnu\n' >"$r/etc/ld.so.conf"
ldconfig -r "$r" 2>/dev/null || true

(cd "$r" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
