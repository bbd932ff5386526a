#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd gen and bpfwd bench parse with their keyword tables: a keyword
# given twice, one without its value and a value out of its range are
# usage errors (exit 2) with one line that says which, before anything
# is set up; gen's size range is the one its frames can have, and its
# message says that range.  Their help is their grammar, and the man
# page and README.md carry it line by line.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

ERR=$TMPDIR_T/err

# usage WANT_LINE DESC ARGS...: bpfwd ARGS exits 2 with WANT_LINE on stderr
usage() {
	local want=$1 desc=$2
	shift 2
	"$BPFWD" "$@" >/dev/null 2>"$ERR"
	is "$?" 2 "$desc: exit 2"
	is "$(cat "$ERR")" "bpfwd: $want" "$desc: says so"
}

usage 'gen duplicate "dev": "b0" is the second value' "gen dev twice" \
	gen dev a0 dev b0
usage 'gen duplicate "size": "128" is the second value' "gen size twice" \
	gen dev a0 size 64 size 128
usage 'gen "count" needs a value' "gen count without a value" gen dev a0 count
usage 'gen missing "dev DEV"' "gen without dev" gen count 10
usage 'gen size "63": out of range (64-1518)' "gen size below 64" \
	gen dev a0 size 63
usage 'gen size "1519": out of range (64-1518)' "gen size above 1518" \
	gen dev a0 size 1519
usage 'gen size "65535": out of range (64-1518)' "gen size 65535 (was accepted)" \
	gen dev a0 size 65535
usage 'gen size "64": UDP/IPv6 frames are 66-1518 bytes' "gen ipv6 size 64" \
	gen dev a0 ipv6 size 64
usage 'gen src "192.0.2.1": an IPv4 address with IPv6' "gen IPv4 src, IPv6 dst" \
	gen dev a0 src 192.0.2.1 dst 2001:db8::2
usage 'gen count and duration exclude each other' "gen count and duration" \
	gen dev a0 count 1 duration 1

# the ends of the range pass the parser: the missing device is next
for s in 64 1518; do
	out=$("$BPFWD" gen dev nosuch0 size $s 2>&1)
	is "$?:$out" "1:bpfwd: gen nosuch0: no such device" "gen size $s is a size gen takes"
done

usage 'bench duplicate "rounds": "2" is the second value' "bench rounds twice" \
	bench rounds 1 rounds 2
usage 'bench duplicate "dev": "e0" is the second value' "bench dev twice" \
	bench dev a0 b0 c0 d0 dev e0 f0 g0 h0
usage 'bench "duration" needs a value' "bench duration without a value" \
	bench duration
usage 'bench dev needs GEN DUT_IN DUT_OUT SINK' "bench dev with two devices" \
	bench dev a0 b0
usage 'bench size "63": out of range (64-1518)' "bench size below 64" bench size 63
usage 'bench rounds "101": out of range (1-100)' "bench rounds above 100" \
	bench rounds 101
usage 'bench unknown counter "both"' "bench count takes xdp or tc" bench count both
usage 'bench unknown sink "elsewhere"' "bench sink takes inline or thread" \
	bench sink elsewhere
usage 'bench unknown argument "frob"' "bench unknown keyword" bench rounds 1 frob

# each help line stands, blanks folded, in the man page and README.md
fold() { sed -E 's/^[[:space:]]*(Usage:|where)?[[:space:]]*//; s/[[:space:]]+/ /g; s/ $//' | grep -v '^$'; }
for obj in gen bench; do
	help=$("$BPFWD" $obj help)
	is "$?" 0 "bpfwd $obj help exits 0"
	for doc in man/bpfwd-bench.8.rst README.md; do
		missing=$(grep -vxF -f <(fold <"$TOP/$doc") <(fold <<<"$help"))
		is "$missing" "" "$doc has the grammar of bpfwd $obj help"
	done
done

done_testing
