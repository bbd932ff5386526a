#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd monitor counts redirect errors made on purpose, each with the
# right device, target and errno: tc redirects to an ifindex that no
# longer exists and to a device that is down, XDP redirects to a device
# that is down, to one that cannot take frames (a veth whose peer has no
# NAPI), to an ifindex that does not exist, and an XDP_ABORTED.  A
# healthy forwarding run reports no errors, another namespace sees none
# of them, and the Prometheus textfile parses.  nobulk leaves out the
# bulk tracepoints and still counts an XDP redirect error.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=20
XDP_OBJ=$BUILD/tests/bpf/monitor_xdp.o
OUT=$TMPDIR_T/mon.json
MON_PID=
# events on this namespace's devices: cpumap events have no device and
# cannot be told apart by namespace (another test's cpumap may drop)
OWN_EVENTS='[.events[] | select(.ifindex != 0)]'

command -v bpftool >/dev/null || skip_all "bpftool missing"
[ -r /sys/kernel/btf/vmlinux ] || skip_all "kernel without BTF: bpfwd monitor needs it"

# mon_start NS ARGS...: bpfwd -j monitor in the background, returns once
# it printed its first interval (its programs are attached by then)
mon_start() {
	local ns=$1 i
	shift
	rm -f "$OUT"
	"$BPFWD" -n "$ns" -j monitor interval 1 "$@" >"$OUT" 2>"$OUT.err" &
	MON_PID=$!
	on_exit "kill $MON_PID"
	for ((i = 0; i < 100; i++)); do
		[ -s "$OUT" ] && return 0
		kill -0 "$MON_PID" 2>/dev/null || break
		sleep 0.1
	done
	diag "monitor did not start: $(cat "$OUT.err" "$OUT")"
	return 1
}

# mon_stop: stops the monitor after one more interval; sets $last to
# its last JSON object
mon_stop() {
	local rc
	sleep 1.2
	kill -TERM "$MON_PID" 2>/dev/null
	wait "$MON_PID"
	rc=$?
	MON_PID=
	# in JSON mode errors are JSON objects on stdout
	[ "$rc" = 0 ] || diag "monitor exited $rc: $(cat "$OUT.err" "$OUT")"
	last=$(jq -cs 'last' "$OUT")
}

# row JSON EVENT DEV: the event row of DEV in a monitor object
row() {
	jq -c --arg ev "$2" --arg dev "$3" \
		'[.events[] | select(.event == $ev and .dev == $dev)] | first // empty' <<<"$1"
}

# prom_valid FILE: every sample is name{label="value",...} number, its
# metric has a TYPE line before it, and no series appears twice
prom_valid() {
	awk '
	/^# TYPE / { typed[$3] = 1; next }
	/^#/ || /^$/ { next }
	{
		if (!match($0, /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? [0-9]+(\.[0-9]+)?$/)) {
			print "bad sample: " $0; bad = 1; next
		}
		name = $0; sub(/[{ ].*/, "", name)
		series = $0; sub(/ [^ ]*$/, "", series)
		if (!(name in typed)) { print "no TYPE: " $0; bad = 1 }
		if (series in seen) { print "twice: " $0; bad = 1 }
		seen[series] = 1; n++
	}
	END { exit bad || !n }' "$1"
}

tc_tp=false
[ -d /sys/kernel/tracing/events/tc/tc_redirect_err ] && tc_tp=true

# 1. healthy tc forwarding: no errors
topo || skip_all "cannot build the topology"
bpfwd_ns "$dut" port add dev d0 to d1 hook tc || not_ok "port add"
mon_start "$dut" || not_ok "monitor starts"
got=$(delivered "$sink" $N)
mon_stop
is "$got" $N "healthy tc: $N datagrams forwarded"
is "$(jq "$OWN_EVENTS | length" <<<"$last")" 0 "healthy tc: monitor reports no errors"
is "$(jq -r '.mode' <<<"$last")" errors "errors only by default"
if $tc_tp; then
	like "$(jq -c .signals <<<"$last")" 'tc:tc_redirect_err' "tc signal: tc:tc_redirect_err (patched kernel)"
else
	like "$(jq -c .signals <<<"$last")" 'skb:kfree_skb' "tc signal: skb:kfree_skb (stock kernel)"
fi

# 2. tc redirect to an ifindex that no longer exists
to=$(ifindex_of "$dut" d1)
mon_start "$dut" || not_ok "monitor starts"
ip -n "$dut" link del d1
send_udp "$gen" 192.0.2.2 $N
mon_stop
r=$(row "$last" tc_redirect_err d0)
is "$(jq -r .errno <<<"$r")" ENODEV "tc to a missing ifindex: ENODEV on d0"
is "$(jq -r .target_index <<<"$r")" "$to" "tc to a missing ifindex: target is the port's old target ($to)"
ge "$(jq -r .packets <<<"$r")" $N "tc to a missing ifindex: $N packets counted"
topo_del

# 3. tc redirect to a device that is down
topo || not_ok "topology"
bpfwd_ns "$dut" port add dev d0 to d1 hook tc || not_ok "port add"
ip -n "$dut" link set d1 down
mon_start "$dut" || not_ok "monitor starts"
send_udp "$gen" 192.0.2.2 $N
mon_stop
r=$(row "$last" tc_redirect_err d0)
is "$(jq -r .errno <<<"$r")" ENETDOWN "tc to a down device: ENETDOWN on d0"
is "$(jq -r .target <<<"$r")" d1 "tc to a down device: target d1"
ge "$(jq -r .packets <<<"$r")" $N "tc to a down device: $N packets counted"

# 4. another namespace sees none of it
mon_start "$gen" || not_ok "monitor starts in gen"
send_udp "$gen" 192.0.2.2 $N
mon_stop
is "$(jq "$OWN_EVENTS | length" <<<"$last")" 0 "monitor in another namespace sees none of the dut's errors"
bpfwd_ns "$dut" port del dev d0
topo_del

# 5. XDP: attach the test program on d0, configure it, look at the errors
# xdp_case DESC TO MODE EVENT ERRNO TARGET [MONITOR ARGS...]
xdp_case() {
	local desc=$1 to=$2 mode=$3 ev=$4 errno=$5 target=$6 r
	shift 6
	mon_start "$dut" "$@" || not_ok "monitor starts"
	t_cfg key 0 0 0 0 value $((to & 255)) $((to >> 8 & 255)) 0 0 &&
		t_cfg key 1 0 0 0 value "$mode" 0 0 0 ||
		not_ok "$desc: configure the test program"
	send_udp "$gen" 192.0.2.2 $N
	mon_stop
	r=$(row "$last" "$ev" d0)
	is "$(jq -r .errno <<<"$r")" "$errno" "$desc: $ev $errno on d0"
	[ -n "$target" ] && is "$(jq -r .target <<<"$r")" "$target" "$desc: target $target"
	ge "$(jq -r .packets <<<"$r")" $N "$desc: $N packets counted"
}

if [ ! -f "$XDP_OBJ" ]; then
	skip "XDP cases: $XDP_OBJ missing (make check builds it)"
elif ! command -v ethtool >/dev/null; then
	skip "XDP cases: ethtool missing (GRO gives a veth the NAPI XDP frames need)"
else
	topo || not_ok "topology"
	if ! ip -n "$dut" link set dev d0 xdpdrv obj "$XDP_OBJ" sec xdp 2>"$TMPDIR_T/xdp.err"; then
		skip "XDP cases: cannot attach native XDP to a veth: $(head -1 "$TMPDIR_T/xdp.err")"
	else
		# the test program's config map, by id: a name would match
		# every bpfwd_t_cfg on the machine (two runs at once)
		prog=$(ip -n "$dut" -j link show d0 | jq -r '.[0].xdp.prog.id')
		CFG_ID=$(bpftool -j prog show id "$prog" | jq -r '.map_ids[]' |
			while read -r m; do
				bpftool -j map show id "$m" | jq -r 'select(.name == "bpfwd_t_cfg") | .id'
			done)
		t_cfg() { bpftool map update id "$CFG_ID" "$@"; }
		d1=$(ifindex_of "$dut" d1)
		# XDP frames lose the checksum offload state: full checksums
		in_ns "$gen" ethtool -K g0 tx off >/dev/null 2>&1
		# s0 has no XDP program and GRO off: no NAPI, d1 cannot take
		# frames.  Kernels with xdp_features (6.3+) refuse at enqueue
		# (xdp_redirect_err EOPNOTSUPP), older ones when the bulk is
		# sent (xdp_devmap_xmit ENXIO).
		in_ns "$sink" ethtool -K s0 gro off >/dev/null 2>&1
		mon_start "$dut" || not_ok "monitor starts"
		t_cfg key 0 0 0 0 value $((d1 & 255)) $((d1 >> 8 & 255)) 0 0
		send_udp "$gen" 192.0.2.2 $N
		mon_stop
		r=$(row "$last" xdp_redirect_err d0)
		[ "$(jq -r .errno <<<"$r")" = EOPNOTSUPP ] || r=$(row "$last" xdp_devmap_xmit d0)
		like "$(jq -r '"\(.event) \(.errno) \(.target)"' <<<"$r")" \
			'^(xdp_redirect_err EOPNOTSUPP|xdp_devmap_xmit ENXIO) d1$' \
			"XDP to a veth without NAPI: EOPNOTSUPP or ENXIO, target d1"
		ge "$(jq -r .packets <<<"$r")" $N "XDP to a veth without NAPI: $N packets counted"
		# with NAPI on s0 but d1 down
		in_ns "$sink" ethtool -K s0 gro on >/dev/null 2>&1
		ip -n "$dut" link set d1 down
		xdp_case "XDP to a down device" "$d1" 0 xdp_redirect_err ENETDOWN d1
		xdp_case "nobulk: XDP to a down device" "$d1" 0 xdp_redirect_err ENETDOWN d1 nobulk
		is "$(jq -c '[.signals[] | select(test("devmap|cpumap"))]' <<<"$last")" '[]' \
			"nobulk: it counted with no bulk tracepoint attached"
		xdp_case "XDP to a missing ifindex" 9999 0 xdp_redirect_err EINVAL ""
		mon_start "$dut" || not_ok "monitor starts"
		t_cfg key 1 0 0 0 value 1 0 0 0
		send_udp "$gen" 192.0.2.2 $N
		mon_stop
		r=$(row "$last" xdp_exception d0)
		is "$(jq -r .action <<<"$r")" ABORTED "XDP_ABORTED: xdp_exception ABORTED on d0"
		ge "$(jq -r .packets <<<"$r")" $N "XDP_ABORTED: $N packets counted"

		# healthy XDP: s0 takes frames (GRO gives it NAPI)
		ip -n "$dut" link set d1 up
		t_cfg key 0 0 0 0 value $((d1 & 255)) $((d1 >> 8 & 255)) 0 0
		t_cfg key 1 0 0 0 value 0 0 0 0
		sleep 0.5
		mon_start "$dut" all prom "$TMPDIR_T/bpfwd.prom" || not_ok "monitor starts"
		got=$(delivered "$sink" $N)
		mon_stop
		is "$got" $N "healthy XDP: $N datagrams forwarded"
		is "$(jq '[.events[] | select(.errno != null)] | length' <<<"$last")" 0 \
			"healthy XDP: no errors"
		r=$(row "$last" xdp_redirect d0)
		ge "$(jq -r .packets <<<"$r")" $N "all: xdp_redirect counts the $N redirects"
		is "$(jq -r .target <<<"$r")" d1 "all: xdp_redirect target d1"

		# the textfile parses: every sample is name{labels} value, with
		# a TYPE before it and no series twice
		prom=$TMPDIR_T/bpfwd.prom
		check "prom file written" test -s "$prom"
		check "prom file parses" prom_valid "$prom"
		like "$(cat "$prom")" 'bpfwd_monitor_packets_total\{event="xdp_redirect",dev="d0",target="d1",action="REDIRECT",errno="",map_id=""\} [0-9]+' \
			"prom file has the xdp_redirect series of d0"
		ls "$TMPDIR_T" | grep -q 'bpfwd.prom.tmp' && not_ok "no temp file left" || ok "no temp file left"

		# through a devmap: the target is read out of the map's slot
		ip -n "$dut" link set dev d0 xdpdrv off
		if bpfwd_ns "$dut" port add dev d0 to d1 mode map hook xdp 2>"$TMPDIR_T/map.err"; then
			ip -n "$dut" link set d1 down
			mon_start "$dut" || not_ok "monitor starts"
			send_udp "$gen" 192.0.2.2 $N
			mon_stop
			r=$(row "$last" xdp_redirect_err d0)
			is "$(jq -r '"\(.errno) \(.target) \(.map_id > 0)"' <<<"$r")" "ENETDOWN d1 true" \
				"XDP devmap to a down device: ENETDOWN, target d1 from the devmap"
			bpfwd_ns "$dut" port del dev d0
		else
			skip "devmap case: bpfwd port ... mode map hook xdp: $(head -1 "$TMPDIR_T/map.err")"
		fi
	fi
	topo_del
fi

# 6. adapts to the kernel: each error tracepoint that exists is attached
setup_ns solo
mon_start "$solo" count 2 || not_ok "monitor starts"
mon_stop
for tp in xdp_redirect_err xdp_redirect_map_err xdp_exception xdp_cpumap_kthread \
	xdp_cpumap_enqueue xdp_devmap_xmit; do
	if [ -d "/sys/kernel/tracing/events/xdp/$tp" ]; then
		like "$(jq -c .signals <<<"$last")" "\"xdp:$tp\"" "attached to xdp:$tp (exists)"
	else
		is "$(jq -c .signals <<<"$last" | grep -c "\"xdp:$tp\"")" 0 "xdp:$tp absent, not attached"
	fi
done

# the line the monitor starts with names what it listens to: nobulk
# leaves out the bulk tracepoints, and only them (with all too)
bulk="xdp_cpumap_kthread xdp_cpumap_enqueue xdp_devmap_xmit"
for args in "" nobulk "all nobulk"; do
	line=$("$BPFWD" -n "$solo" monitor $args count 1 2>&1 | sed -n 1p)
	like "$line" '^monitoring (redirect errors|all redirects):' "${args:-default}: says what it listens to"
	for tp in xdp_redirect_err xdp_redirect_map_err xdp_exception $bulk; do
		want="listens to"
		why=
		if [ ! -d "/sys/kernel/tracing/events/xdp/$tp" ]; then
			want="does not listen to" why=" (absent)"
		elif [[ " $bulk " == *" $tp "* && " $args " == *" nobulk "* ]]; then
			want="does not listen to"
		fi
		got="does not listen to"
		[[ "$line " == *" xdp:$tp "* ]] && got="listens to"
		is "$got" "$want" "${args:-default}: $want xdp:$tp$why"
	done
done
like "$line " ' xdp:xdp_redirect ' "all nobulk: listens to xdp:xdp_redirect"
# errors names the default: after all, it takes all back
line=$("$BPFWD" -n "$solo" monitor all errors count 1 2>&1 | sed -n 1p)
like "$line" '^monitoring redirect errors:' "all errors: errors only"
[[ "$line " == *" xdp:xdp_redirect "* ]] && not_ok "all errors: not xdp:xdp_redirect" ||
	ok "all errors: not xdp:xdp_redirect"

mon_start "$solo" nokfree count 2 || not_ok "monitor nokfree starts"
mon_stop
is "$(jq -c '.signals | index("skb:kfree_skb")' <<<"$last")" null "nokfree: skb:kfree_skb not attached"

# 7. bad input: one line, exit 2 or 1, nothing left behind (the
# monitor pins nothing; its programs go with the process)
pins_before=$(pins)
out=$("$BPFWD" monitor interval 0 2>&1)
is "$?" 2 "interval 0: usage error"
like "$out" '^bpfwd: monitor interval "0"' "interval 0: names command and cause"
out=$("$BPFWD" monitor bogus 2>&1)
is "$?" 2 "unknown word: usage error"
out=$("$BPFWD" monitor prom "$TMPDIR_T/nosuchdir/x.prom" count 1 2>&1)
is "$?" 1 "prom in a missing directory: failure"
like "$out" "^bpfwd: monitor prom .*: No such file or directory$" "prom error names the file and the cause"
is "$(pins)" "$pins_before" "no pin left"
ls "$TMPDIR_T"/nosuchdir 2>/dev/null && not_ok "no file made" || ok "no file made"

done_testing
