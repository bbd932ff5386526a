#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# kill -9 during port replace leaves the old or the new configuration,
# and the same command run again repairs the rest (issue 13).  Each
# replace changes one thing (the mode: a program swap; or the target:
# the entry), and is killed at a random moment; a syscall shim slows
# every bpf() and netlink call so that the kills land inside the
# command, not before or after it.  After each kill:
#  - the program is attached (a swap is atomic, there is no gap);
#  - port show's mode is the mode of the program the kernel has on d0
#    (read with tc / bpftool, not with bpfwd), and show's target and
#    mode are the old configuration or the new one;
#  - the same replace again gives the new one, also in the table entry.
# And port add, killed: the same add again completes the port.
# 16 kills per hook here; BPFWD_SOAK=1 (make soak) makes it 300.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v bpftool >/dev/null || skip_all "bpftool missing"

KILLS=16
[ -n "${BPFWD_SOAK:-}" ] && KILLS=300
# per bpf() / netlink call; map updates (the entry) 10 times that, so
# that kills also land between the program swap and the entry
SLOW_US=2000

cat >"$TMPDIR_T/slow.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

static void slow(void)
{
	const char *s = getenv("SLOW_US");

	if (s)
		usleep(atoi(s));
}

long syscall(long nr, ...)
{
	static long (*next)(long, ...);
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_bpf)
		slow();
	if (nr == __NR_bpf && a[0] == 2)	/* BPF_MAP_UPDATE_ELEM */
		usleep(9 * atoi(getenv("SLOW_US") ?: "0"));
	if (!next)
		next = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return next(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *to, socklen_t tolen)
{
	static ssize_t (*next)(int, const void *, size_t, int,
			       const struct sockaddr *, socklen_t);

	slow();
	if (!next)
		next = dlsym(RTLD_NEXT, "sendto");
	return next(fd, buf, len, flags, to, tolen);
}
EOF
${CC:-cc} -shared -fPIC -o "$TMPDIR_T/slow.so" "$TMPDIR_T/slow.c" -ldl ||
	skip_all "cannot build the syscall shim"
SLOW=(env LD_PRELOAD="$TMPDIR_T/slow.so" SLOW_US=$SLOW_US)

# prog_mode HOOK: the mode of the program the kernel has on the dut's d0
# ingress (by its name), "none" without one
prog_mode() {
	local name id
	if [ "$1" = tcx ]; then
		id=$(bpftool -j link show pinned "$PIN_DIR/link_${D0}_ingress" 2>/dev/null |
			jq -r '.prog_id // empty')
		name=$([ -n "$id" ] && bpftool -j prog show id "$id" | jq -r .name)
	else
		name=$(in_ns "$dut" tc -j filter show dev d0 ingress |
			jq -r '[.[] | .options.bpf_name // empty][0] // empty')
	fi
	case $name in
	rd_xmit) echo redirect ;;
	clone_xmit) echo clone ;;
	"") echo none ;;
	*) echo "$name" ;;
	esac
}

# shown: "TO MODE ATTACHED" of port show
shown() {
	bpfwd_ns "$dut" -j port show dev d0 | jq -r '.[0] | "\(.to) \(.mode) \(.attached)"'
}

# entry_mode: the mode the table entry of d0 records (0 redirect, 1 clone)
entry_mode() {
	bpftool -j map dump pinned "$PIN_DIR/bpfwd_ports" |
		jq -r --argjson k "$D0" '.[] | select(.formatted.key == $k) |
			.formatted.value.mode | if . == 1 then "clone" else "redirect" end'
}

SPECS=("to d1 mode clone" "to d2 mode clone" "to d2 mode redirect" "to d1 mode redirect")

for hook in $(tc_hooks); do
	topo
	veth "$dut" d2 "$sink" s1
	D0=$(ifindex_of "$dut" d0)
	bpfwd_ns "$dut" port add dev d0 to d1 hook "$hook" || die "$hook: port add"
	# the dut's pin directory, found without bpfwd (the test's bpffs
	# holds only this namespace's table)
	PIN_DIR=$(dirname "$(find /sys/fs/bpf/bpfwd -name bpfwd_ports | head -1)")
	# how long a slowed replace takes (a program swap there and back):
	# the kills fall within it
	t0=$(date +%s%N)
	"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 mode clone
	"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 mode redirect
	ms=$((($(date +%s%N) - t0) / 2000000 + 5))
	diag "$hook: a slowed replace takes ${ms} ms"
	cur="d1 redirect"
	detached=0 mixed=0 mismatch=0 unrepaired=0 killed=0 unfinished=0 old=0 new=0
	for ((i = 0; i < KILLS; i++)); do
		spec=${SPECS[i % 4]}
		read -r _ to _ mode <<<"$spec"
		want="$to $mode"
		# shellcheck disable=SC2086
		"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 $spec 2>/dev/null &
		pid=$!
		r=$((RANDOM % ms))
		sleep "$(printf '%d.%03d' $((r / 1000)) $((r % 1000)))"
		kill -9 $pid 2>/dev/null && killed=$((killed + 1))
		wait $pid 2>/dev/null
		read -r sto smode satt <<<"$(shown)"
		pmode=$(prog_mode "$hook")
		[ "$satt" = true ] || detached=$((detached + 1))
		[ "$smode" = "$pmode" ] || mismatch=$((mismatch + 1))
		case "$sto $smode" in
		"$cur") old=$((old + 1)) ;;
		"$want") new=$((new + 1)) ;;
		*) mixed=$((mixed + 1)); diag "$hook: kill $i: '$sto $smode', not '$cur' or '$want'" ;;
		esac
		[ "$(entry_mode)" = "$smode" ] || unfinished=$((unfinished + 1))
		# shellcheck disable=SC2086
		bpfwd_ns "$dut" port replace dev d0 $spec
		if [ "$(shown)" != "$want true" ] || [ "$(prog_mode "$hook")" != "$mode" ] ||
			[ "$(entry_mode)" != "$mode" ]; then
			unrepaired=$((unrepaired + 1))
			diag "$hook: kill $i: after the repeat: $(shown), program $(prog_mode "$hook"), entry $(entry_mode)"
		fi
		cur=$want
	done
	diag "$hook: $killed of $KILLS replaces killed; $old left the old configuration, $new the new one; $unfinished between program and entry"
	ge "$killed" $((KILLS / 4)) "$hook: a quarter of the kills or more landed inside the command"
	is "$detached" 0 "$hook: after every kill a program is attached"
	is "$mismatch" 0 "$hook: after every kill port show's mode is the attached program's"
	is "$mixed" 0 "$hook: after every kill show gives the old or the new configuration"
	is "$unrepaired" 0 "$hook: the same replace again always gives the new configuration, entry included"
	# the state left by a kill between program and entry (new program,
	# old entry), made on purpose: show goes by the program, and a
	# replace decided from the recorded mode would change nothing
	bpfwd_ns "$dut" port replace dev d0 to d1 mode redirect
	key=(hex $(printf '%02x %02x 00 00' $((D0 & 255)) $((D0 >> 8 & 255))))
	val=$(bpftool -j map lookup pinned "$PIN_DIR/bpfwd_ports" key "${key[@]}" |
		jq -r '.value | .[8] = "0x01" | map(ltrimstr("0x")) | join(" ")')
	# shellcheck disable=SC2086
	bpftool map update pinned "$PIN_DIR/bpfwd_ports" key "${key[@]}" value hex $val
	is "$(entry_mode) $(shown)" "clone d1 redirect true" \
		"$hook: an entry that says clone beside the redirect program: show says redirect"
	bpfwd_ns "$dut" port replace dev d0 to d1 mode clone
	is "$(prog_mode "$hook") $(entry_mode)" "clone clone" \
		"$hook: replace ... mode clone then swaps the program (decided from what is attached)"
	# a killed port add: no port, or a port without its program (the
	# entry goes in first) that the same add completes
	bpfwd_ns "$dut" port del dev d0
	adds=$((KILLS / 4)) partial=0 unrepaired=0
	for ((i = 0; i < adds; i++)); do
		"${SLOW[@]}" "$BPFWD" -n "$dut" port add dev d0 to d1 mode clone hook "$hook" 2>/dev/null &
		pid=$!
		r=$((RANDOM % ms))
		sleep "$(printf '%d.%03d' $((r / 1000)) $((r % 1000)))"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		[ "$(shown)" = "d1 clone true" ] || [ "$(shown)" = "null null null" ] ||
			partial=$((partial + 1))
		bpfwd_ns "$dut" port add dev d0 to d1 mode clone hook "$hook" 2>/dev/null
		[ "$(shown) $(prog_mode "$hook")" = "d1 clone true clone" ] ||
			unrepaired=$((unrepaired + 1))
		bpfwd_ns "$dut" port del dev d0
	done
	diag "$hook: $partial of $adds killed adds left a port without its program"
	# the state such a kill leaves, made on purpose: the entry, no program
	bpfwd_ns "$dut" port add dev d0 to d1 mode clone hook "$hook" || die "$hook: port add"
	if [ "$hook" = tcx ]; then
		rm "$PIN_DIR/link_${D0}_ingress"
	else
		in_ns "$dut" tc filter del dev d0 ingress
	fi
	is "$(shown)" "d1 clone false" "$hook: an entry without its program: shown detached"
	check "$hook: the same add completes it" bpfwd_ns "$dut" port add dev d0 to d1 mode clone hook "$hook"
	is "$(shown) $(prog_mode "$hook")" "d1 clone true clone" "$hook: the port with its program"
	out=$(bpfwd_ns "$dut" port add dev d0 to d2 mode clone hook "$hook" 2>&1)
	like "$?:$out" "^1:.*d0: already a port" "$hook: another add on it is still refused"
	bpfwd_ns "$dut" port del dev d0
	is "$unrepaired" 0 "$hook: after a killed add, the same add gives the port with its program"
	topo_del
done
has_tcx || skip "tcx: this kernel has no tcx (needs 6.6)"

done_testing
