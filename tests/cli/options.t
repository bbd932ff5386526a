#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The global options as iproute2 spells them (-j[son], -p[retty],
# -n[etns] NAME, -b[atch] FILE, -f[orce], -V[ersion], -h[elp], the --
# forms too), batch files read as iproute2 reads them (quotes, '\'
# continuation, lines too long or with too many words refused, never
# split) and keywords given twice refused by stats and monitor.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v jq >/dev/null || skip_all "jq missing"

OUT=$TMPDIR_T/out
ERR=$TMPDIR_T/err

setup_ns dut || { not_ok "namespace"; done_testing; }
ip -n "$dut" link add v0 type veth peer v1

# run DESC RC STDERR CMD...: exit code and the whole of stderr
run() {
	local desc=$1 rc=$2 msg=$3
	shift 3
	"$@" >"$OUT" 2>"$ERR"
	is "$?:$(<"$ERR")" "$rc:$msg" "$desc"
}

## -n[etns] NAME: the device is found in the namespace, not on the host
for o in -n -ne -netns --netns; do
	run "$o NAME enters the namespace" 1 'bpfwd: stats v0: not a port' \
		"$BPFWD" $o "$dut" stats dev v0
done
run "-netns without a name" 2 \
	'bpfwd: option -netns needs a value, try bpfwd help' "$BPFWD" -netns

## -j[son], -p[retty]
for o in -j -json --json; do
	"$BPFWD" $o -n "$dut" stats >"$OUT" 2>"$ERR"
	is "$?:$(jq -c . <"$OUT"):$(<"$ERR")" "0:[]:" "$o: stats as JSON"
done
"$BPFWD" -json probe >"$OUT"
is "$?:$(wc -l <"$OUT")" "0:1" "-json probe: one line"
for o in -p -pretty --pretty; do
	"$BPFWD" $o probe >"$OUT"
	rc=$?
	ge "$(wc -l <"$OUT")" 10 "$o probe: indented, a line a value"
	is "$rc:$(jq -r 'has("tracepoints")' <"$OUT")" "0:true" "$o probe: JSON"
done
"$BPFWD" -json frob >"$OUT" 2>"$ERR"
is "$?:$(jq -r .error <"$OUT")" '2:unknown object "frob", try "help"' \
	"-json: errors are JSON"

## -V[ersion], -h[elp], --
for o in -V -Version --Version --version; do
	"$BPFWD" $o port frob >"$OUT" 2>"$ERR"
	like "$?:$(<"$OUT"):$(<"$ERR")" '^0:bpfwd [0-9][^:]*:$' "$o: the version, exit 0"
done
for o in -h -help --help; do
	"$BPFWD" $o >"$OUT" 2>"$ERR"
	like "$?:$(head -1 "$OUT"):$(<"$ERR")" '^0:Usage: bpfwd .*:$' "$o: usage, exit 0"
done
run "-- ends the options" 2 'bpfwd: unknown object "-json", try "help"' \
	"$BPFWD" -- -json
run "a word no option begins" 2 'bpfwd: unknown option -jx, try bpfwd help' \
	"$BPFWD" -jx stats

## -b[atch] FILE and -f[orce]
B=$TMPDIR_T/batch
printf '%s\n' 'stats dev nosuch0' 'stats' >"$B"
"$BPFWD" -n "$dut" -batch "$B" >"$OUT" 2>"$ERR"
is "$?:$(<"$OUT")" "1:" "-batch: stops at the failed line"
is "$(<"$ERR")" $'bpfwd: stats nosuch0: no such device\n'"bpfwd: batch $B: line 1 failed" \
	"-batch: the error and the line"
for o in -f -force --force; do
	"$BPFWD" -n "$dut" -j $o -b "$B" >"$OUT" 2>"$ERR"
	is "$?:$(jq -s -c 'map(if type == "object" then .error else . end)' <"$OUT")" \
		"1:[\"nosuch0: no such device\",\"batch $B: line 1 failed\",[]]" \
		"$o: the next line runs, exit 1 at the end"
done
printf '%s\n' 'stats' 'stats' >"$B"
"$BPFWD" -n "$dut" -j -f -b "$B" >"$OUT" 2>"$ERR"
is "$?:$(jq -s -c . <"$OUT"):$(<"$ERR")" "0:[[],[]]:" "-force: exit 0 when no line failed"

# quoting: one word with a blank, in "..." and in '...'
printf '%s\n' 'probe "fr ob"' >"$B"
run 'batch: "..." is one word' 2 \
	$'bpfwd: probe unknown argument "fr ob"\n'"bpfwd: batch $B: line 1 failed" \
	"$BPFWD" -b "$B"
printf '%s\n' "# comment" "stats dev 'a b' # comment" >"$B"
run "batch: '...' is one word" 1 \
	$'bpfwd: stats a b: not a valid interface name\n'"bpfwd: batch $B: line 2 failed" \
	"$BPFWD" -n "$dut" -b "$B"
printf '%s\n' 'probe "frob' >"$B"
run "batch: a quote not closed" 2 "bpfwd: batch $B: line 1: unterminated quoted string" \
	"$BPFWD" -b "$B"
# continuation: one command over three lines, named by its first
printf '%s\n' '' 'stats \' '  dev \' 'v0' 'frob' >"$B"
run "batch: '\\' continues the command" 1 \
	$'bpfwd: stats v0: not a port\n'"bpfwd: batch $B: line 2 failed" \
	"$BPFWD" -n "$dut" -b "$B"
# a line longer than the buffer is refused, its tail never runs
{ printf 'stats %*s' 5000 ''; echo 'probe frob'; echo 'probe frob2'; } >"$B"
run "batch: a line too long" 2 \
	"bpfwd: batch $B: line 1: too long (at most 4095 characters)" \
	"$BPFWD" -b "$B"
{ printf 'stats %*s' 5000 ''; echo 'probe frob'; echo 'stats dev'; } >"$B"
run "batch -force: the line after one too long runs" 1 \
	"bpfwd: batch $B: line 1: too long (at most 4095 characters)"$'\n'\
'bpfwd: stats "dev" needs a value'$'\n'"bpfwd: batch $B: line 2 failed" \
	"$BPFWD" -f -b "$B"
{ printf 'stats'; printf ' dev%d' {1..300}; echo; } >"$B"
run "batch: too many words" 2 \
	"bpfwd: batch $B: line 1: too many words (at most 255)" \
	"$BPFWD" -b "$B"
{ printf 'stats'; printf ' x%d' {1..70}; echo; } >"$B"
run "batch: words past the 63rd are not dropped" 2 \
	$'bpfwd: stats unknown argument "x1"\n'"bpfwd: batch $B: line 1 failed" \
	"$BPFWD" -b "$B"

## keywords given twice
run "stats: dev twice" 2 'bpfwd: stats duplicate "dev": "v1" is the second value' \
	"$BPFWD" -n "$dut" stats dev v0 dev v1
run "stats: percpu twice" 2 'bpfwd: stats duplicate "percpu"' \
	"$BPFWD" stats percpu percpu
run "stats: interval twice" 2 'bpfwd: stats duplicate "interval": "2" is the second value' \
	"$BPFWD" stats interval 1 interval 2
run "monitor: count twice" 2 'bpfwd: monitor duplicate "count": "2" is the second value' \
	"$BPFWD" monitor count 1 count 2
run "monitor: prom twice" 2 'bpfwd: monitor duplicate "prom": "b" is the second value' \
	"$BPFWD" monitor prom a prom b
run "monitor: nobulk twice, around all" 2 'bpfwd: monitor duplicate "nobulk"' \
	"$BPFWD" monitor nobulk all nobulk

done_testing
