#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# monitor prom FILE writes its textfile where a node_exporter collector
# reads it, a directory that may belong to another user.  Root's
# monitor must never write through a link planted there: not at the
# temporary name (the old FILE.tmp.<pid>, guessable from the pid), not
# at FILE itself.  The file it leaves is a new regular file, readable
# by all, and no temporary file stays behind.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

[ -r /sys/kernel/btf/vmlinux ] || skip_all "kernel without BTF: bpfwd monitor needs it"
id nobody >/dev/null 2>&1 || skip_all "no user nobody to own the directory"

setup_ns mon || { not_ok "namespace"; done_testing; }

DIR=$TMPDIR_T/textfile
VICTIM=$TMPDIR_T/victim
chmod 711 "$TMPDIR_T"	# nobody reaches its directory
mkdir "$DIR"
chown nobody "$DIR"
chmod 755 "$DIR"
echo precious >"$VICTIM"
OUT=$DIR/bpfwd.prom

# as the owner of the directory: links at the temporary name the old
# monitor used (the pid is the one bpfwd runs as: bash exec keeps it),
# at a name without the pid and at the file itself
bash -c 'for l in "$1.tmp.$$" "$1.tmp" "$1"; do
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			ln -s "$2" "$l" || exit 9
	done
	shift 2
	exec "$@"' planter "$OUT" "$VICTIM" \
	"$BPFWD" -n "$mon" -j monitor count 1 prom "$OUT" >"$TMPDIR_T/json" 2>"$TMPDIR_T/err"
rc=$?
[ "$rc" = 9 ] && { not_ok "plant links as nobody"; done_testing; }
is "$rc" 0 "monitor prom with links planted in the directory: exit 0"
is "$(<"$TMPDIR_T/err")" "" "monitor prom: nothing on stderr"
is "$(<"$VICTIM")" precious "the file a link points to is untouched"
check "FILE is now a regular file, not the planted link" \
	test -f "$OUT" -a ! -L "$OUT"
is "$(stat -c '%U %a' "$OUT")" "root 644" "FILE is root's and readable by all"
like "$(<"$OUT")" $'\nbpfwd_monitor_lost_total 0\n' "FILE is the textfile"
check "the link at another name is left alone" test -L "$OUT.tmp"
left=$(find "$DIR" -name 'bpfwd.prom.tmp.*' ! -type l)
is "$left" "" "no temporary file left behind"

# a directory that does not exist fails before anything is attached
"$BPFWD" -n "$mon" monitor count 1 prom "$TMPDIR_T/nosuch/x.prom" \
	>"$TMPDIR_T/out" 2>"$TMPDIR_T/err"
is "$?:$(<"$TMPDIR_T/err")" \
	"1:bpfwd: monitor prom $TMPDIR_T/nosuch/x.prom: No such file or directory" \
	"prom in a missing directory: exit 1, one line"
is "$(<"$TMPDIR_T/out")" "" "prom in a missing directory: no report"

done_testing
