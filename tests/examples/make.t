#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The Makefile: `make help` names every .PHONY target, and a build that
# is done stays done (make -q all: nothing to remake, the skeleton
# headers are kept), and install/uninstall into a DESTDIR leave nothing
# behind.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

help=$(make -s -C "$TOP" help)
for t in $(sed -n 's/^\.PHONY:[[:space:]]*//p' "$TOP/Makefile"); do
	grep -q "^  $t " <<<"$help"
	check "make help names $t" test $? = 0
done

make -s -C "$TOP" all >/dev/null 2>&1
make -q --no-print-directory -C "$TOP" all
is "$?" 0 "after make, make -q all finds nothing to remake"
skels=$(ls "$BUILD"/*.skel.h 2>/dev/null | wc -l)
ge "$skels" 1 "the skeleton headers are kept after the build"

dest=$TMPDIR_T/dest
out=$(make -C "$TOP" install DESTDIR="$dest" TC_LIB_DIR=/usr/lib/tc 2>&1)
is "$?" 0 "make install DESTDIR=... succeeds"
is "$(grep -cE '^  (CC|BPF|GEN-SKEL|LINK) ' <<<"$out")" 0 "make install after make compiles nothing"
for f in sbin/bpfwd lib/bpf/redirect.o include/bpfwd/bpfwd.h \
	 share/bash-completion/completions/bpfwd share/man/man8/bpfwd.8; do
	check "make install puts $f" test -f "$dest/usr/local/$f"
done
check "make install puts the tc plugin" test -f "$dest/usr/lib/tc/e_bpfwd.so"
make -s -C "$TOP" uninstall DESTDIR="$dest" TC_LIB_DIR=/usr/lib/tc >/dev/null 2>&1
is "$(find "$dest" -type f | wc -l)" 0 "make uninstall removes every file install put"

done_testing
