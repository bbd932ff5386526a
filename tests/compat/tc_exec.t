#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd through iproute2: `tc exec bpfwd ...` with the plugin found via
# TC_LIB_DIR=build/.  The port it adds forwards real traffic, it prints
# what bpfwd prints (also for tc -j), tc's exit status is the command's
# (1 failure, 2 usage), several execs share one tc process in batch
# mode, the plugin exports only bpfwd_exec_util, and `bpfwd probe` says
# whether the plugin loads and, when it does not, why (tc hides it).
source "$(dirname "$0")/../lib.sh"
need_bpfwd

PLUGIN=$BUILD/e_bpfwd.so
N=30
OUT=$TMPDIR_T/out
ERR=$TMPDIR_T/err

[ -r "$PLUGIN" ] || skip_all "$PLUGIN missing: run make"
command -v tc >/dev/null || skip_all "no tc (iproute2)"
export TC_LIB_DIR=$BUILD

# tc_ns NS ARGS...: tc ARGS in NS; stdout/stderr to $OUT/$ERR
tc_ns() {
	local ns=$1
	shift
	in_ns "$ns" tc "$@" >"$OUT" 2>"$ERR"
}

## the plugin
is "$(nm -D --defined-only "$PLUGIN" | awk '{ print $3 }')" bpfwd_exec_util \
	"nm -D: the plugin exports bpfwd_exec_util and nothing else"
is "$("$BPFWD" -j probe | jq -c '.tc_plugin')" \
	"$(jq -nc --arg p "$PLUGIN" '{path: $p, loads: true}')" \
	"probe: TC_LIB_DIR=build: the plugin loads"

# plugins that do not load, and probe's reason for each
mkdir -p "$TMPDIR_T/none" "$TMPDIR_T/junk" "$TMPDIR_T/nosym"
head -c 4096 /dev/zero >"$TMPDIR_T/junk/e_bpfwd.so"
probe_plugin() {
	TC_LIB_DIR=$1 "$BPFWD" -j probe | jq -r '.tc_plugin | "\(.loads) \(.error)"'
}
like "$(probe_plugin "$TMPDIR_T/none")" \
	"^false $TMPDIR_T/none/e_bpfwd.so: cannot open shared object file" \
	"probe: no plugin in TC_LIB_DIR: loads false, says the file is missing"
like "$(probe_plugin "$TMPDIR_T/junk")" "^false $TMPDIR_T/junk/e_bpfwd.so: invalid ELF header" \
	"probe: a plugin that is no ELF object: loads false, says why"
if echo 'int bpfwd_other;' | ${CC:-cc} -shared -fPIC -x c - \
	-o "$TMPDIR_T/nosym/e_bpfwd.so" 2>/dev/null; then
	is "$(probe_plugin "$TMPDIR_T/nosym")" "false no bpfwd_exec_util symbol" \
		"probe: a plugin without bpfwd_exec_util: loads false, says so"
else
	skip "probe: no C compiler to build a plugin without the symbol"
fi
TC_LIB_DIR=$TMPDIR_T/none tc exec bpfwd port show >/dev/null 2>&1
ge "$?" 1 "tc exec with no plugin fails (tc itself does not say why)"

## the commands
topo || { not_ok "topology"; done_testing; }

tc_ns "$dut" exec bpfwd port add dev d0 to d1 hook tc
is "$?" 0 "tc exec bpfwd port add: exit 0"
is "$(<"$OUT")$(<"$ERR")" "" "tc exec bpfwd port add: prints nothing"
is "$(delivered "$sink" $N)" $N \
	"the port tc exec added forwards $N datagrams to the sink"

tc_ns "$dut" exec bpfwd port show
is "$(<"$OUT")" "$(bpfwd_ns "$dut" port show)" \
	"tc exec bpfwd port show prints what bpfwd port show prints"
like "$(<"$OUT")" '^d0 to d1 mode redirect hook tc at ingress prio 1$' \
	"tc exec bpfwd port show: the port"
want=$(bpfwd_ns "$dut" -j port show)
tc_ns "$dut" exec bpfwd -j port show
is "$(<"$OUT")" "$want" "tc exec bpfwd -j port show: bpfwd's JSON"
tc_ns "$dut" -j exec bpfwd port show
is "$(<"$OUT")" "$want" "tc -j exec bpfwd port show: JSON as with any tc -j"
is "$(jq -c '.[0] | [.dev, .to, .hook]' <"$OUT")" '["d0","d1","tc"]' \
	"tc -j exec bpfwd port show: the port in JSON"
tc_ns "$dut" -j -p exec bpfwd port show
is "$(jq -c . <"$OUT")" "$(jq -c . <<<"$want")" "tc -j -p exec: pretty JSON, same content"
tc_ns "$dut" exec bpfwd -j stats dev d0
ge "$(jq '.[0].packets' <"$OUT")" $N "tc exec bpfwd -j stats: the counter moved"
tc exec bpfwd -n "$dut" port show >"$OUT" 2>"$ERR"
is "$(<"$OUT")" "$(bpfwd_ns "$dut" port show)" \
	"tc exec bpfwd -n NETNS enters the namespace from outside"

## exit status: tc returns the command's
# tc_exit DESC RC MSG ARGS...: tc exec bpfwd ARGS in the dut exits RC
# with the one line MSG on stderr
tc_exit() {
	local desc=$1 rc=$2 msg=$3
	shift 3
	tc_ns "$dut" exec bpfwd "$@"
	is "$?" "$rc" "tc exec bpfwd $desc: tc exits $rc"
	is "$(<"$ERR")" "$msg" "tc exec bpfwd $desc: says so"
}
tc_exit "add on a port" 1 \
	"bpfwd: port add d0: already a port (to ifindex $(ifindex_of "$dut" d1), hook tc); use port replace or port del" \
	port add dev d0 to d1
tc_exit "unknown device" 1 'bpfwd: port add nosuch0: no such device' \
	port add dev nosuch0 to d1
tc_exit "unknown word" 2 'bpfwd: port add unknown argument "frob"' \
	port add dev d1 to d0 frob
tc_exit "unknown object" 2 'bpfwd: unknown object "frob", try "help"' frob
tc_exit "-n of no namespace" 1 \
	"bpfwd: netns bpfwd-nosuch-$SUFFIX: no such network namespace" \
	-n "bpfwd-nosuch-$SUFFIX" port show
tc_exit "-j unknown object" 2 "" -j frob
is "$(jq -r .error <"$OUT")" 'unknown object "frob", try "help"' \
	"tc exec bpfwd -j: the error is JSON on stdout"
tc_ns "$dut" exec bpfwd --help
is "$?" 0 "tc exec bpfwd --help: exit 0"
like "$(head -1 "$OUT")" '^Usage: bpfwd ' "tc exec bpfwd --help: usage on stdout"
is "$(bpfwd_ns "$dut" -j port show)" "$want" "the failed commands changed nothing"

## batch: several execs in one tc process, each starting afresh
printf '%s\n' 'exec bpfwd -j port show' 'exec bpfwd port show' \
	'exec bpfwd -n nosuch port show' 'exec bpfwd port show' >"$TMPDIR_T/batch"
tc_ns "$dut" -b "$TMPDIR_T/batch"
is "$?" 1 "tc -b: a failing exec fails the batch"
is "$(<"$OUT")" "$want"$'\n'"$(bpfwd_ns "$dut" port show)" \
	"tc -b: JSON then text (options do not leak between execs), none after the failure"
like "$(<"$ERR")" 'bpfwd: netns nosuch: no such network namespace' \
	"tc -b: the failing line says why"

# -n in one exec does not move the execs after it (tc runs them all in
# one process, in the namespace it started in)
printf '%s\n' "exec bpfwd -n $dut -j port show" 'exec bpfwd -j port show' \
	>"$TMPDIR_T/batch"
tc -b "$TMPDIR_T/batch" >"$OUT" 2>"$ERR"
is "$?" 0 "tc -b: exec with -n, then exec without"
is "$(<"$OUT")" "$want"$'\n'"[]" \
	"tc -b: only the exec with -n ran in the dut, the next one back in tc's namespace"

## del through tc: nothing left
tc_ns "$dut" exec bpfwd port del dev d0
is "$?" 0 "tc exec bpfwd port del: exit 0"
is "$(bpfwd_ns "$dut" -j port show)" "[]" "tc exec bpfwd port del: no port left"
is "$(in_ns "$dut" tc filter show dev d0 ingress)$(in_ns "$dut" tc qdisc show dev d0 | grep clsact)" \
	"" "tc exec bpfwd port del: no filter, no clsact left"
is "$(delivered "$sink" $N)" 0 "after del nothing is forwarded"

done_testing
