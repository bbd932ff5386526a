#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The JSON of stats (once, percpu, interval), port show, apply, probe
# and monitor is what the man pages' JSON OUTPUT sections say: every
# documented key is in
# every object it is documented for, with a documented type; every key
# the commands print is documented; counts and rates never share a key
# (a rate is NAME_per_sec, a count NAME), and every device name has its
# ifindex beside it.  The schema is read from the man pages themselves,
# so the two cannot drift apart.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

MAN=$TOP/man/bpfwd.8.rst
MON_MAN=$TOP/man/bpfwd-monitor.8.rst
COUNTS='["packets","bytes","dropped","err_clone","err_redirect","no_target","runt","vlan"]'

# Documented keys that a file this test's author could not change does
# not print yet: "TITLE PATH|reason".  Reported as TODO (not a failure)
# until it does; then the TODO passes and the entry goes.
KNOWN_GAPS=()

# schema MAN TITLE...: "PATH<tab>TYPES<tab>OPTIONAL" for every key the
# JSON OUTPUT subsections TITLE... of MAN document (a definition term
# ``path``, ``path`` (type or type, only ...))
schema() {
	local man=$1
	shift
	awk -v want="$(printf '%s\n' "$@")" '
	BEGIN { n = split(want, w, "\n"); for (i = 1; i <= n; i++) titles[w[i]] = 1 }
	/^(-+|=+)$/ { sec = prev; next }
	{ prev = $0 }
	(sec in titles) && /^``/ {
		line = $0
		if (!match(line, /\([^()]*\)$/))
			next
		inner = substr(line, RSTART + 1, RLENGTH - 2)
		keys = substr(line, 1, RSTART - 1)
		opt = inner ~ /only/ ? 1 : 0
		sub(/,.*/, "", inner)
		gsub(/ or /, ",", inner)
		gsub(/ /, "", inner)
		while (match(keys, /``[^`]+``/)) {
			print substr(keys, RSTART + 2, RLENGTH - 4) "\t" inner "\t" opt
			keys = substr(keys, RSTART + RLENGTH)
		}
	}' "$man"
}

# gap TITLE PATH: the reason PATH of TITLE is a known gap, or nothing
gap() {
	local g
	for g in "${KNOWN_GAPS[@]}"; do
		[ "${g%%|*}" = "$1" ] || continue
		g=${g#*|}
		[ "${g%%|*}" = "$2" ] && echo "${g#*|}"
	done
}

# key_fails TITLE PATH DESC WHY: not ok, or TODO for a known gap
key_fails() {
	local why
	why=$(gap "$1" "$2")
	if [ -n "$why" ]; then
		T_N=$((T_N + 1))
		echo "not ok $T_N - $3 # TODO $why"
	else
		not_ok "$3"
	fi
	diag "$4"
}

# check_key DOC TITLE PATH TYPES OPTIONAL: PATH is in every object of
# its parent (unless OPTIONAL) with one of TYPES (comma-separated)
check_key() {
	local doc=$1 title=$2 path=$3 types=$4 opt=$5 key parent jp n missing got bad
	key=${path##*.}
	parent=${path%.*}
	[ "$parent" = "$path" ] && parent=
	# every object PATH's parent names (an array that only some rows
	# have, like [].cpumap, is skipped where it is absent)
	jp="(.${parent//\[\]/[]?} | objects)"
	n=$(jq "[$jp] | length" <<<"$doc")
	if [ "$n" = 0 ]; then
		if [ "$opt" = 1 ]; then
			skip "$title: $path: no object to hold it in this output"
		else
			not_ok "$title: $path: no object to hold it in this output"
		fi
		return
	fi
	if [ "$key" = "*" ]; then
		got=$(jq -c "[$jp | .[] | type] | unique" <<<"$doc")
		missing=0
	else
		got=$(jq -c --arg k "$key" "[$jp | select(has(\$k)) | .[\$k] | type] | unique" <<<"$doc")
		missing=$(jq --arg k "$key" "[$jp | select(has(\$k) | not)] | length" <<<"$doc")
	fi
	if [ "$opt" = 1 ] && [ "$got" = "[]" ]; then
		skip "$title: $path: not in this output (documented as only in some)"
		return
	fi
	bad=$(jq -c --arg t "$types" '. - ($t | split(","))' <<<"$got")
	if [ "$opt" != 1 ] && [ "$missing" != 0 ]; then
		key_fails "$title" "$path" "$title: $path in every object" \
			"missing in $missing of $n objects"
	elif [ "$bad" != "[]" ]; then
		key_fails "$title" "$path" "$title: $path is $types" "got types $got"
	else
		ok "$title: $path is ${types//,/ or }"
	fi
}

# check_schema DOC MAN TITLE...: DOC against the keys documented under
# TITLE... in MAN, both ways
check_schema() {
	local doc=$1 man=$2 path types opt p undocumented=() documented=()
	shift 2
	while IFS=$'\t' read -r path types opt; do
		documented+=("$path")
		check_key "$doc" "$1" "$path" "$types" "$opt"
	done < <(schema "$man" "$@")
	[ "${#documented[@]}" -gt 0 ] || not_ok "$1: man page documents its keys"
	# every key printed (array elements as [], object keys as .key)
	while read -r p; do
		printf '%s\n' "${documented[@]}" | grep -qxF -e "$p" -e "${p%.*}.*" ||
			undocumented+=("$p")
	done < <(jq -r '[paths | select(.[-1] | type == "string") |
		map(if type == "number" then "[]" else "." + . end) | join("") |
		ltrimstr(".")] | unique[]' <<<"$doc")
	is "${undocumented[*]}" "" "$1: every key it prints is documented"
}

# no_rates DOC TITLE: no key of DOC is a rate
no_rates() {
	is "$(jq -c '[paths | .[-1] | strings | select(endswith("_per_sec"))] | unique' <<<"$1")" \
		"[]" "$2: counts only, no NAME_per_sec key"
}

topo || skip_all "cannot build the topology"
bpfwd_ns "$dut" port add dev d0 to d1 hook tc || die "port add d0"
bpfwd_ns "$dut" port add dev d1 to d0 hook tc || die "port add d1"
got=$(delivered "$sink" 20)
is "$got" 20 "traffic crosses the ports"
# an XDP cpumap port, for the cpumap side of stats (its rows are there
# without traffic)
veth "$dut" c0 "$dut" c1
bpfwd_ns "$dut" port add dev c0 hook xdp xdp-mode generic cpus 0 fix-offload ||
	die "port add c0 (cpumap)"
CPU_COUNTS='["packets","passed","redirected","err_redirect","no_cpu","processed","drops","sched"]'

# stats, once
doc=$(bpfwd_ns "$dut" -j stats)
check_schema "$doc" "$MAN" "bpfwd -j stats"
no_rates "$doc" "stats"
is "$(jq -c '[.[] | select(.dev != null) | select(.ifindex == null)] | length' <<<"$doc")" 0 \
	"stats: an ifindex beside every dev"
is "$(jq -c --argjson i "$(ifindex_of "$dut" d1)" '.[] | select(.dev == "d0") | [.to, .to_ifindex]' <<<"$doc")" \
	"[\"d1\",$(ifindex_of "$dut" d1)]" "stats: to and to_ifindex name the same device"

# stats percpu
doc=$(bpfwd_ns "$dut" -j stats percpu)
check_schema "$doc" "$MAN" "bpfwd -j stats" "bpfwd -j stats percpu"
no_rates "$doc" "stats percpu"

# stats interval percpu, traffic all through the last interval
out=$TMPDIR_T/rates
bpfwd_ns "$dut" -j stats interval 1 count 2 percpu >"$out" 2>&1 &
pid=$!
on_exit "kill $pid"
while kill -0 $pid 2>/dev/null; do
	send_udp "$gen" 192.0.2.2 10
	sleep 0.05
done
wait $pid
is "$?" 0 "stats interval: exits 0"
doc=$(jq -cs last "$out")
check_schema "$doc" "$MAN" "bpfwd -j stats interval S percpu"
is "$(jq -c --argjson c "$COUNTS" '[.rates[] | (., .cpus[]?) | keys[] | select(IN($c[]))] | unique' <<<"$doc")" \
	"[]" "stats interval: no rate under a count's key"
ge "$(jq '.rates[] | select(.dev == "d0") | .packets_per_sec | floor' <<<"$doc")" 1 \
	"stats interval: d0's packets_per_sec moved"
is "$(jq -c '[.rates[] | select(.dev == "c0") | .cpumap[]] | length > 0' <<<"$doc")" true \
	"stats interval: the cpumap port's cpumap rows"
is "$(jq -c --argjson c "$CPU_COUNTS" '[.rates[].cpumap[]? | (., .kthread // empty) | keys[] | select(IN($c[]))] | unique' <<<"$doc")" \
	"[]" "stats interval: no cpumap or kthread rate under a count's key"
bpfwd_ns "$dut" port del dev c0 || not_ok "port del c0"

# port show: the tc ports, and one whose devices are gone
veth "$dut" a0 "$dut" a1
bpfwd_ns "$dut" port add dev a0 to a1 hook tc || die "port add a0"
ip -n "$dut" link del a0
doc=$(bpfwd_ns "$dut" -j port show)
check_schema "$doc" "$MAN" "bpfwd -j port show"
is "$(jq -c '[.[] | select(.dev == null) | [.name, .to, .to_state, .attached]]' <<<"$doc")" \
	'[["a0",null,"gone",false]]' "port show: the gone port: dev null, its name, to null, gone, detached"
bpfwd_ns "$dut" port del dev a0 || not_ok "port del of the gone a0"

# apply: d0 as it is, d1 by the file
printf 'port add dev d0 to d1 hook tc\nport add dev d1 to d0 hook tc mode clone\n' >"$TMPDIR_T/apply.conf"
doc=$(bpfwd_ns "$dut" -j apply "$TMPDIR_T/apply.conf" prune)
check_schema "$doc" "$TOP/man/bpfwd-apply.8.rst" "bpfwd -j apply"
is "$(jq -c 'map(.action)' <<<"$doc")" '["unchanged","replaced"]' "apply: what it did"

# probe
doc=$(bpfwd_ns "$dut" -j probe)
check_schema "$doc" "$MAN" "bpfwd -j probe"

# monitor, with an error to report: the target of d0 is down
if [ -r /sys/kernel/btf/vmlinux ]; then
	ip -n "$dut" link set d1 down
	out=$TMPDIR_T/mon
	bpfwd_ns "$dut" -j monitor interval 1 count 3 >"$out" 2>&1 &
	pid=$!
	on_exit "kill $pid"
	for ((i = 0; i < 100; i++)); do
		[ -s "$out" ] && break
		sleep 0.1
	done
	send_udp "$gen" 192.0.2.2 20
	wait $pid
	is "$?" 0 "monitor: exits 0"
	doc=$(jq -cs last "$out")
	ge "$(jq '.events | length' <<<"$doc")" 1 "monitor: reports the redirect errors"
	check_schema "$doc" "$MON_MAN" "bpfwd -j monitor"
	is "$(jq -c '[.events[] | select(.target_kind == "dev" and .target_ifindex != .target_index)] | length' <<<"$doc")" \
		0 "monitor: target_ifindex is the device target's ifindex"
else
	skip "monitor: kernel without BTF"
fi

done_testing
