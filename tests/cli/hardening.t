#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# What a local user could do to a root bpfwd, and a bpffs that would not
# outlive the command:
#  - pin directories: on a bpffs mounted without mode= (1777, as this
#    test's), a user who makes bpfwd/, bpfwd/<cookie>/ or tc/globals/
#    first (or a symlink there, or a root-made one others can write)
#    could later remove bpfwd's links and maps.  bpfwd refuses them with
#    one line naming the directory and the fix, and changes nothing; the
#    directories it makes are root's, 0700.
#  - BPFWD_BPFFS and TC_LIB_DIR that lead through a user's symlink,
#    directory or file are ignored with a warning: no bpffs mounted over
#    the user's target, no plugin of the user's dlopen()ed by probe.
#  - `ip netns exec NS bpfwd ...` and `tc -n NS exec bpfwd ...` see a
#    fresh /sys without the bpffs: bpfwd refuses (pins made there would
#    be lost) and names `bpfwd -n`.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

BPFFS=/sys/fs/bpf
USER_ID=65534
OUT=$TMPDIR_T/out
ERR=$TMPDIR_T/err

command -v setpriv >/dev/null || skip_all "no setpriv (util-linux)"
topo || { not_ok "topology"; done_testing; }

# as_user CMD...: CMD as uid/gid 65534, no groups
as_user() {
	setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups "$@"
}
snap() { state "$dut" d0 d1; }

# refused DESC MSG-REGEX CMD...: CMD exits 1 with one line on stderr
# matching MSG-REGEX, and changes nothing
refused() {
	local desc=$1 re=$2 before
	shift 2
	before=$(snap)
	"$@" >"$OUT" 2>"$ERR"
	is "$?" 1 "$desc: exit 1"
	is "$(wc -l <"$ERR")" 1 "$desc: one line"
	like "$(<"$ERR")" "$re" "$desc: the line says what and how to fix it"
	is "$(snap)" "$before" "$desc: nothing changed"
}

add() { bpfwd_ns "$dut" port add dev d0 to d1 "$@"; }

## pin directories
# learn the namespace's directory, then let the port go (gc removes it)
check "port add (to learn the pin directory)" add hook tc
NSDIR=$(bpfwd_ns "$dut" -j port show | jq -r '.[0].pin_dir')
is "$(stat -c '%u %a' "$NSDIR" "$BPFFS/bpfwd" | sort -u)" "0 700" \
	"bpfwd/ and bpfwd/<cookie>/ are root's, 0700"
check "port del" bpfwd_ns "$dut" port del dev d0
[ ! -e "$BPFFS/bpfwd" ] || not_ok "port del removed bpfwd/"
is "$(stat -c '%a' "$BPFFS")" 1777 "the test's bpffs is 1777 (mounted without mode=)"

as_user mkdir "$BPFFS/bpfwd"
refused "bpfwd/ made by a user" \
	"^bpfwd: port add $BPFFS/bpfwd: a pin directory bpfwd did not make \(owner uid $USER_ID, mode 0[0-7]+;.*remove it \(rm -r $BPFFS/bpfwd\) and mount the bpffs with mode=0700$" \
	add hook tc
refused "bpfwd/ made by a user: port show" "^bpfwd: port show $BPFFS/bpfwd: a pin directory bpfwd did not make" \
	bpfwd_ns "$dut" port show
rmdir "$BPFFS/bpfwd"

mkdir -m 0700 "$BPFFS/bpfwd"
mkdir "$NSDIR" && chown $USER_ID "$NSDIR" && chmod 0700 "$NSDIR"
refused "bpfwd/<cookie>/ owned by uid $USER_ID" \
	"$NSDIR: a pin directory bpfwd did not make \(owner uid $USER_ID, mode 0700" \
	add hook tcx
chown 0 "$NSDIR"
chmod 0777 "$NSDIR"
refused "bpfwd/<cookie>/ root's but mode 0777" \
	"$NSDIR: a pin directory bpfwd did not make \(owner uid 0, mode 0777" \
	add hook tc
rmdir "$NSDIR"
mkdir -m 0700 "$BPFFS/elsewhere"
ln -s "$BPFFS/elsewhere" "$NSDIR" 2>/dev/null ||
	ln -s "$TMPDIR_T" "$NSDIR" 2>/dev/null
if [ -L "$NSDIR" ]; then
	refused "bpfwd/<cookie> a symlink" \
		"$NSDIR: a symlink or not a directory where bpfwd keeps its pins.*remove it \(rm $NSDIR\)$" \
		add hook tc
	rm -f "$NSDIR"
else
	skip "bpfwd/<cookie> a symlink: this bpffs has no symlinks"
fi
rmdir "$BPFFS/elsewhere" "$BPFFS/bpfwd"

as_user mkdir -p "$BPFFS/tc/globals"
refused "tc/globals/ made by a user (hook none)" \
	"$BPFFS/tc: a pin directory bpfwd did not make \(owner uid $USER_ID" \
	add hook none
rm -r "$BPFFS/tc"

# the attack itself, on directories bpfwd made: the user can no longer
# remove the link or rename the maps
check "port add on a clean bpffs" add hook tcx
is "$(stat -c '%u %a' "$NSDIR")" "0 700" "the new bpfwd/<cookie>/ is root's, 0700"
link=$(find "$NSDIR" -name 'link_*' | head -1)
if [ -n "$link" ]; then
	as_user rm -f "$link" 2>/dev/null
	check "a user cannot remove the port's link pin" test -e "$link"
else
	skip "no tcx link pin (no tcx)"
fi
as_user mv "$NSDIR/bpfwd_ports" "$BPFFS/stolen" 2>/dev/null
check "a user cannot move the port table" test -e "$NSDIR/bpfwd_ports"
check "port del" bpfwd_ns "$dut" port del dev d0

## BPFWD_BPFFS and TC_LIB_DIR
# a directory like /tmp, where the user can make entries
PUB=$(mktemp -d /tmp/bpfwd-pub.XXXXXX)
on_exit rm -rf "$PUB"
chmod 1777 "$PUB"
mkdir -m 0755 "$TMPDIR_T/target"
as_user ln -s "$TMPDIR_T/target" "$PUB/link"
BPFWD_BPFFS=$PUB/link bpfwd_ns "$dut" port add dev d0 to d1 hook tc 2>"$ERR"
is "$?" 0 "BPFWD_BPFFS through a user's symlink: port add goes on"
like "$(<"$ERR")" "^bpfwd: BPFWD_BPFFS=$PUB/link ignored: $PUB/link is owned by uid $USER_ID" \
	"BPFWD_BPFFS through a user's symlink: a warning says it is ignored and why"
check "BPFWD_BPFFS through a user's symlink: no bpffs mounted on its target" \
	test "$(stat -f -c %T "$TMPDIR_T/target")" != bpf_fs
like "$(bpfwd_ns "$dut" -j port show | jq -r '.[0].pin_dir')" "^$BPFFS/bpfwd/" \
	"BPFWD_BPFFS through a user's symlink: the port is in the default bpffs"
check "port del" bpfwd_ns "$dut" port del dev d0

as_user mkdir "$PUB/mine"
ln -s "$PUB/mine" "$PUB/rootlink"
BPFWD_BPFFS=$PUB/rootlink bpfwd_ns "$dut" port show 2>"$ERR" >/dev/null
like "$(<"$ERR")" "BPFWD_BPFFS=$PUB/rootlink ignored: $PUB/mine is owned by uid $USER_ID" \
	"BPFWD_BPFFS: root's symlink to a user's directory is ignored too"
chmod 0777 "$TMPDIR_T/target"
BPFWD_BPFFS=$TMPDIR_T/target bpfwd_ns "$dut" port show 2>"$ERR" >/dev/null
like "$(<"$ERR")" "BPFWD_BPFFS=$TMPDIR_T/target ignored: $TMPDIR_T/target is writable by every user" \
	"BPFWD_BPFFS: a world-writable directory is ignored"
chmod 0755 "$TMPDIR_T/target"
mount -t bpf bpf "$TMPDIR_T/target"
on_exit umount "$TMPDIR_T/target"
chmod 0700 "$TMPDIR_T/target"
BPFWD_BPFFS=$TMPDIR_T/target bpfwd_ns "$dut" port add dev d0 to d1 hook tc 2>"$ERR"
is "$?.$(<"$ERR")" "0." "BPFWD_BPFFS on root's own bpffs: used, no warning"
like "$(bpfwd_ns "$dut" -j port show 2>/dev/null | jq -r length)" "^0$" \
	"... and the port is not in the default bpffs"
like "$(BPFWD_BPFFS=$TMPDIR_T/target bpfwd_ns "$dut" -j port show | jq -r '.[0].pin_dir')" \
	"^$TMPDIR_T/target/bpfwd/" "... but in BPFWD_BPFFS"
check "port del (BPFWD_BPFFS)" env BPFWD_BPFFS="$TMPDIR_T/target" "$BPFWD" -n "$dut" port del dev d0

# a plugin that says when it was loaded
EVIL=$TMPDIR_T/evil.c
MARK=$TMPDIR_T/loaded
cat >"$EVIL" <<EOF
#include <fcntl.h>
__attribute__((constructor)) static void f(void) { creat("$MARK", 0600); }
int bpfwd_exec_util;
EOF
as_user mkdir "$PUB/lib"
if ${CC:-cc} -shared -fPIC -o "$PUB/lib/e_bpfwd.so" "$EVIL" 2>/dev/null; then
	chown $USER_ID "$PUB/lib/e_bpfwd.so"
	TC_LIB_DIR=$PUB/lib "$BPFWD" -j probe >"$OUT" 2>"$ERR"
	check "TC_LIB_DIR a user's directory: probe does not load its plugin" test ! -e "$MARK"
	like "$(<"$ERR")" "^bpfwd: TC_LIB_DIR=$PUB/lib ignored: $PUB/lib is owned by uid $USER_ID" \
		"TC_LIB_DIR a user's directory: a warning says it is ignored and why"
	like "$(jq -r .tc_plugin.path <"$OUT")" "^/.*/e_bpfwd.so$" \
		"TC_LIB_DIR a user's directory: probe looks in the default one"
	jq -e .kernel "$OUT" >/dev/null
	is "$?" 0 "TC_LIB_DIR a user's directory: probe's JSON stays valid"
	mkdir -m 0755 "$TMPDIR_T/lib"
	mv "$PUB/lib/e_bpfwd.so" "$TMPDIR_T/lib/"
	TC_LIB_DIR=$TMPDIR_T/lib "$BPFWD" -j probe >"$OUT" 2>"$ERR"
	check "root's TC_LIB_DIR with a user's plugin file: not loaded" test ! -e "$MARK"
	is "$(jq -r .tc_plugin.error <"$OUT")" "$TMPDIR_T/lib/e_bpfwd.so is owned by uid $USER_ID" \
		"root's TC_LIB_DIR with a user's plugin file: probe says why"
	chown 0 "$TMPDIR_T/lib/e_bpfwd.so"
	TC_LIB_DIR=$TMPDIR_T/lib "$BPFWD" -j probe >"$OUT" 2>"$ERR"
	check "root's TC_LIB_DIR and file: the plugin is loaded" test -e "$MARK"
else
	skip "no C compiler to build a plugin"
fi

## a bpffs that would not outlive the command
refused "ip netns exec NS bpfwd port add" \
	"^bpfwd: port add $BPFFS: no bpffs in this mount namespace .*use bpfwd -n NETNS \(setns keeps the host's bpffs\), or mount one on $BPFFS first$" \
	ip netns exec "$dut" "$BPFWD" port add dev d0 to d1 hook tc
refused "ip netns exec NS bpfwd port show" "^bpfwd: port show $BPFFS: no bpffs in this mount namespace" \
	ip netns exec "$dut" "$BPFWD" port show
if [ -r "$BUILD/e_bpfwd.so" ] && command -v tc >/dev/null; then
	refused "tc -n NS exec bpfwd port add" "use bpfwd -n NETNS" \
		env TC_LIB_DIR="$BUILD" tc -n "$dut" exec bpfwd port add dev d0 to d1 hook tc
else
	skip "tc -n NS exec: no tc or no plugin"
fi
check "bpfwd -n NS port add still works" add hook tc
check "port del" bpfwd_ns "$dut" port del dev d0

done_testing
