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
# And port add, killed: the same add again completes the port.  The
# same for hook xdp, native and generic, where show's target is also
# the kernel's (the constant of the port's copy of xdp.o, the devmap
# slot, the entry of a cpumap port).  16 kills per tc hook and 4 per XDP
# mode and spec list here; BPFWD_SOAK=1 (make soak) makes them 300 and
# 150.
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

## hook xdp, native and generic: a port of mode redirect or map runs a
## copy of xdp.o made for it (target and slot are load-time constants
## in its .rodata), so a new target is a new program too; mode map's
## target is its devmap slot; mode cpumap's programs read the table
## entry (its target), so the entry follows the swap there.  The specs
## change the target, the mode, or both, in turn.
# one round of each four specs here (make check stays short), 150 in
# the soak
XKILLS=4
[ -n "${BPFWD_SOAK:-}" ] && XKILLS=150
XSPECS=("to d2 mode redirect" "to d2 mode map" "to d1 mode map" "to d1 mode redirect")
CSPECS=("to d2 mode cpumap cpus 0" "to d1 mode cpumap cpus 0" "to d2 mode redirect"
	"to d1 mode redirect")

# xdp_id: the id of the XDP program on the dut's d0, empty without one
xdp_id() {
	ip -n "$dut" -j -d link show d0 | jq -r '.[0].xdp.prog.id // empty'
}

# xdp_real: "TO MODE" of what the kernel runs on the dut's d0, read
# without bpfwd: the mode from the program's name; mode redirect's
# target from the copy's constant (fixed_target in its .rodata map),
# mode map's from the devmap slot, mode cpumap's from the table entry
# (which its programs read); "none" without a program
xdp_real() {
	local id name m to="" slot
	id=$(xdp_id)
	[ -n "$id" ] || { echo none; return; }
	name=$(bpftool -j prog show id "$id" | jq -r .name)
	case $name in
	xdp_redirect)
		for m in $(bpftool -j prog show id "$id" | jq '.map_ids[]'); do
			[ "$(bpftool -j map show id "$m" | jq -r .name)" = xdp.rodata ] || continue
			to=$(bpftool -j map dump id "$m" |
				jq -r '.[0].formatted.value[".rodata"] | map(.fixed_target // empty)[0]')
		done
		echo "$(name_of "$to") redirect" ;;
	xdp_devmap)
		slot=$(entry_field slot)
		to=$(bpftool -j map dump pinned "$PIN_DIR/bpfwd_devmap" |
			jq -r --arg k "$(printf '0x%02x 0x%02x' $((slot & 255)) $((slot >> 8)))" \
				'.[] | select((.key[0:2] | join(" ")) == $k) |
				.value[0:4] | map(ltrimstr("0x")) | reverse | join("")')
		echo "$(name_of $((16#${to:-0}))) map" ;;
	xdp_cpumap) echo "$(name_of "$(entry_field target)") cpumap" ;;
	*) echo "? $name" ;;
	esac
}

# name_of IFINDEX: d1 or d2 by the dut's ifindexes
name_of() {
	case $1 in
	"$D1") echo d1 ;;
	"$D2") echo d2 ;;
	*) echo "if$1" ;;
	esac
}

# entry_field FIELD: that field of d0's table entry, as bpftool reads it
entry_field() {
	bpftool -j map dump pinned "$PIN_DIR/bpfwd_ports" |
		jq -r --argjson k "$D0" --arg f "$1" '.[] | select(.formatted.key == $k) | .formatted.value[$f]'
}

# xentry: "TO MODE" of d0's table entry (0 redirect, 5 map, 6 cpumap)
xentry() {
	local m
	m=$(entry_field mode)
	case $m in
	0) m=redirect ;;
	5) m=map ;;
	6) m=cpumap ;;
	*) m=mode$m ;;
	esac
	echo "$(name_of "$(entry_field target)") $m"
}

# xshown: "TO MODE ATTACHED" of port show
xshown() {
	bpfwd_ns "$dut" -j port show dev d0 | jq -r '.[0] | "\(.to) \(.mode) \(.attached)"'
}

# xkills LABEL SPEC...: XKILLS replaces of the dut's d0 (d1 redirect,
# which the specs come back to) to each SPEC in turn, killed at a random
# moment; after each kill show is what the kernel runs, the old or the
# new configuration, and the same replace again makes it the new one
xkills() {
	local h=$1 specs cur detached mixed mismatch unrepaired killed old new
	local i spec to mode want pid r sto smode satt real
	shift
	specs=("$@")
	cur="d1 redirect"
	detached=0 mixed=0 mismatch=0 unrepaired=0 killed=0 old=0 new=0
	for ((i = 0; i < XKILLS; i++)); do
		spec=${specs[i % 4]}
		read -r _ to _ mode _ <<<"$spec"
		want="$to $mode"
		# shellcheck disable=SC2086
		"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 $spec 2>/dev/null &
		pid=$!
		r=$((RANDOM % ms))
		sleep "$(printf '%d.%03d' $((r / 1000)) $((r % 1000)))"
		kill -9 $pid 2>/dev/null && killed=$((killed + 1))
		wait $pid 2>/dev/null
		read -r sto smode satt <<<"$(xshown)"
		real=$(xdp_real)
		[ "$satt" = true ] || detached=$((detached + 1))
		if [ "$sto $smode" != "$real" ]; then
			mismatch=$((mismatch + 1))
			diag "$h: kill $i: shown '$sto $smode', the kernel runs '$real'"
		fi
		case "$sto $smode" in
		"$cur") old=$((old + 1)) ;;
		"$want") new=$((new + 1)) ;;
		*) mixed=$((mixed + 1)); diag "$h: kill $i: '$sto $smode', not '$cur' or '$want'" ;;
		esac
		# shellcheck disable=SC2086
		bpfwd_ns "$dut" port replace dev d0 $spec
		if [ "$(xshown) $(xdp_real) $(xentry)" != "$want true $want $want" ]; then
			unrepaired=$((unrepaired + 1))
			diag "$h: kill $i: after the repeat: $(xshown), the kernel runs $(xdp_real), entry $(xentry)"
		fi
		cur=$want
	done
	diag "$h: $killed of $XKILLS replaces killed; $old left the old configuration, $new the new one"
	ge "$killed" $((XKILLS / 4)) "$h: a quarter of the kills or more landed inside the command"
	is "$detached" 0 "$h: after every kill a program is attached"
	is "$mismatch" 0 "$h: after every kill port show gives what the kernel runs"
	is "$mixed" 0 "$h: after every kill show gives the old or the new configuration"
	is "$unrepaired" 0 "$h: the same replace again always gives the new configuration, entry included"
}

for xm in native generic; do
	h="xdp $xm"
	xtopo
	veth "$dut" d2 "$sink" s1
	in_ns "$sink" ethtool -K s1 gro on >/dev/null
	D0=$(ifindex_of "$dut" d0) D1=$(ifindex_of "$dut" d1) D2=$(ifindex_of "$dut" d2)
	bpfwd_ns "$dut" port add dev d0 to d1 hook xdp xdp-mode $xm || die "$h: port add"
	PIN_DIR=$(dirname "$(find /sys/fs/bpf/bpfwd -name bpfwd_ports | head -1)")
	t0=$(date +%s%N)
	"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 to d2 mode map
	"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 to d1 mode redirect
	ms=$((($(date +%s%N) - t0) / 2000000 + 5))
	diag "$h: a slowed replace takes ${ms} ms"
	xkills "$h" "${XSPECS[@]}"
	t0=$(date +%s%N)
	"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 to d2 mode cpumap cpus 0
	"${SLOW[@]}" "$BPFWD" -n "$dut" port replace dev d0 to d1 mode redirect
	ms=$((($(date +%s%N) - t0) / 2000000 + 5))
	diag "$h: a slowed replace to or from cpumap takes ${ms} ms"
	xkills "$h, cpumap" "${CSPECS[@]}"

	# an equal replace swaps nothing; a new target is a new copy
	bpfwd_ns "$dut" port replace dev d0 to d1 mode redirect
	id=$(xdp_id)
	bpfwd_ns "$dut" port replace dev d0 to d1 mode redirect
	is "$(xdp_id)" "$id" "$h: the same replace again keeps the program (same id)"
	bpfwd_ns "$dut" port replace dev d0 to d2
	isnt_id=$(xdp_id)
	is "$([ "$isnt_id" != "$id" ] && echo new) $(xdp_real)" "new d2 redirect" \
		"$h: another target: another copy, made for d2"
	# the state a kill between entry and swap would leave, made on
	# purpose: an entry that says map to d1 beside the redirect copy for d2
	key=(hex $(printf '%02x %02x 00 00' $((D0 & 255)) $((D0 >> 8 & 255))))
	val=$(bpftool -j map lookup pinned "$PIN_DIR/bpfwd_ports" key "${key[@]}" |
		jq -r --arg t "$(printf '0x%02x' "$D1")" '.value | .[0] = $t | .[8] = "0x05" | map(ltrimstr("0x")) | join(" ")')
	# shellcheck disable=SC2086
	bpftool map update pinned "$PIN_DIR/bpfwd_ports" key "${key[@]}" value hex $val
	is "$(xentry) / $(xshown)" "d1 map / d2 redirect true" \
		"$h: an entry that says map to d1 beside the copy for d2: show says what runs"
	bpfwd_ns "$dut" port replace dev d0 to d1 mode map
	is "$(xdp_real) / $(xentry)" "d1 map / d1 map" \
		"$h: replace ... to d1 mode map then swaps (decided from what runs)"

	# a killed port add: no port, or its entry without the program, which
	# the same add completes
	bpfwd_ns "$dut" port del dev d0
	adds=$((XKILLS / 4 + 1)) partial=0 unrepaired=0
	[ -n "${BPFWD_SOAK:-}" ] || adds=2
	for ((i = 0; i < adds; i++)); do
		"${SLOW[@]}" "$BPFWD" -n "$dut" port add dev d0 to d2 hook xdp xdp-mode $xm 2>/dev/null &
		pid=$!
		r=$((RANDOM % ms))
		sleep "$(printf '%d.%03d' $((r / 1000)) $((r % 1000)))"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		[ "$(xshown)" = "d2 redirect true" ] || [ "$(xshown)" = "null null null" ] ||
			partial=$((partial + 1))
		bpfwd_ns "$dut" port add dev d0 to d2 hook xdp xdp-mode $xm 2>/dev/null
		[ "$(xshown) $(xdp_real)" = "d2 redirect true d2 redirect" ] ||
			unrepaired=$((unrepaired + 1))
		bpfwd_ns "$dut" port del dev d0
	done
	diag "$h: $partial of $adds killed adds left a port without its program"
	bpfwd_ns "$dut" port add dev d0 to d2 hook xdp xdp-mode $xm || die "$h: port add"
	ip -n "$dut" link set d0 "$([ $xm = native ] && echo xdpdrv || echo xdpgeneric)" off
	is "$(xshown)" "d2 redirect false" "$h: an entry without its program: shown detached"
	check "$h: the same add completes it" bpfwd_ns "$dut" port add dev d0 to d2 hook xdp xdp-mode $xm
	is "$(xshown) $(xdp_real)" "d2 redirect true d2 redirect" "$h: the port with its program"
	out=$(bpfwd_ns "$dut" port add dev d0 to d1 hook xdp xdp-mode $xm 2>&1)
	like "$?:$out" "^1:.*d0: already a port" "$h: another add on it is still refused"
	bpfwd_ns "$dut" port del dev d0
	is "$unrepaired" 0 "$h: after a killed add, the same add gives the port with its program"
	topo_del
done

done_testing
