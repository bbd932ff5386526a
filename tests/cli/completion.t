#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# completion/bpfwd.bash: drives the completion function as bash does
# (COMP_WORDS, COMP_CWORD, then COMPREPLY) and checks that every word of
# every object's help grammar is offered where it belongs: objects,
# commands, keywords, and values (the { a | b } lists), that a keyword's
# value is not taken for a keyword, that words already given are not
# offered again, and that devices (of -n's namespace), namespaces and
# files are offered for device, NAME and FILE arguments.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
need_bpfwd

COMPLETION=$TOP/completion/bpfwd.bash
[ -r "$COMPLETION" ] || skip_all "completion/bpfwd.bash missing"
# shellcheck source=completion/bpfwd.bash
source "$COMPLETION"

# offers WORD...: what completing the last WORD (may be "") offers,
# one a line
offers() {
	COMP_WORDS=("$BPFWD" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_bpfwd
	printf '%s\n' "${COMPREPLY[@]}" | sort -u
}

# has LIST WORD...: every WORD is a line of LIST
has() {
	local list=$1 w missing=
	shift
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$list" || missing+=" $w"
	done
	[ -z "$missing" ] || { diag "not offered:$missing"; return 1; }
}

# lacks LIST WORD...: no WORD is a line of LIST
lacks() {
	local list=$1 w extra=
	shift
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$list" && extra+=" $w"
	done
	[ -z "$extra" ] || { diag "offered:$extra"; return 1; }
}

# help_words OBJ: the lowercase words of OBJ's help grammar (lines
# "word: explanation" and their deeper continuation lines are prose)
help_words() {
	"$BPFWD" "$1" help | awk -v obj="$1" '
		{ match($0, /^[ \t]*/); ind = RLENGTH; s = substr($0, ind + 1) }
		desc >= 0 && ind > desc { next }
		{ desc = -1 }
		s ~ /^[a-z][a-z0-9-]*: / { desc = ind; next }
		{ n = split(s, t, /[ \t]+/)
		  for (i = 1; i <= n; i++)
			if (t[i] ~ /^[a-z][a-z0-9-]*$/ && t[i] != "bpfwd" &&
			    t[i] != "where" && t[i] != obj)
				print t[i] }' | sort -u
}

is "$(complete -p bpfwd 2>/dev/null)" "complete -F _bpfwd bpfwd" \
	"the script registers _bpfwd for bpfwd"

objects=$("$BPFWD" help | tr '\n' ' ' | sed -n 's/.*OBJECT := {\([^}]*\)}.*/\1/p' | tr -d '|')
[ -n "$objects" ] || die "bpfwd help lists no objects"
# shellcheck disable=SC2086
check "bpfwd TAB: every object of bpfwd help, and help" \
	has "$(offers "")" $objects help
# shellcheck disable=SC2046,SC2086
check "bpfwd p TAB: the objects starting with p" \
	has "$(offers p)" $(printf '%s\n' $objects | grep '^p')
lacks "$(offers p)" stats >/dev/null
check "bpfwd p TAB: no object not starting with p" test $? = 0
check "bpfwd - TAB: the global options of bpfwd help" \
	has "$(offers -)" -json -pretty -netns -batch -Version -help

# grammar_only LIST WORDS: the lines of LIST that are among WORDS
grammar_only() {
	# shellcheck disable=SC2086
	grep -xF -f <(printf '%s\n' $2) <<<"$1"
}

for obj in $objects; do
	words=$(help_words "$obj")
	first=$(offers "$obj" "")
	all=$first
	# each command or keyword, then each keyword after it (its values)
	for w in $(grammar_only "$first" "$words"); do
		after=$(offers "$obj" "$w" "")
		all+=$'\n'"$after"
		for k in $(grammar_only "$after" "$words"); do
			all+=$'\n'"$(offers "$obj" "$w" "$k" "")"
		done
	done
	# shellcheck disable=SC2086
	check "bpfwd $obj: every word of its help is offered somewhere" \
		has "$all" $words
	# shellcheck disable=SC2086
	extra=$(grep -vxF -f <(printf '%s\n' $words help) <<<"$first")
	is "$extra" "" "bpfwd $obj TAB: only words of its grammar (no prose)"
done

port_add=$(offers port add "")
# shellcheck disable=SC2046
check "port add TAB: every keyword of PORT_SPEC and XDP_SPEC" \
	has "$port_add" $("$BPFWD" port help | sed -n 's/^PORT_SPEC := //p' |
		grep -oE '\b[a-z][a-z-]*\b' | grep -v '^[A-Z]')
lacks "$port_add" redirect clone tc tcx native
check "port add TAB: no value offered as a keyword" test $? = 0

modes=$("$BPFWD" port help | sed -n 's/^MODE := {\(.*\)}/\1/p' | tr -d '|')
hooks=$("$BPFWD" port help | sed -n 's/^HOOK := {\(.*\)}/\1/p' | tr -d '|')
# shellcheck disable=SC2086
check "port add ... mode TAB: MODE and the XDP modes" \
	has "$(offers port add dev x mode "")" $modes map flood
# shellcheck disable=SC2086
check "port add ... hook TAB: HOOK and xdp" \
	has "$(offers port add dev x to y hook "")" $hooks xdp
check "port add ... at TAB: ingress egress" \
	has "$(offers port add dev x to y at "")" ingress egress
check "port add ... xdp-mode TAB: native generic" \
	has "$(offers port add dev x xdp-mode "")" native generic
check "port add ... then TAB: pass" has "$(offers port add dev x cpus 1 "then" "")" pass
is "$(offers port add dev x mode r)" redirect "port add ... mode r TAB: redirect only"
lacks "$(offers port add dev x to y "")" dev to
check "port add dev x to y TAB: dev and to are not offered again" test $? = 0
check "port add dev x to y TAB: the other keywords" \
	has "$(offers port add dev x to y "")" mode hook prio at to-ingress
check "port del TAB: dev and force" has "$(offers port del "")" dev force
check "stats TAB: show and its keywords" \
	has "$(offers stats "")" show dev interval count percpu
check "stats show TAB: its keywords" \
	has "$(offers stats show "")" dev interval count percpu
check "bench count TAB: xdp tc" has "$(offers bench count "")" xdp tc
check "bench sink TAB: inline thread" has "$(offers bench sink "")" inline thread

# devices, namespaces, files
check "port add dev TAB: devices (lo)" has "$(offers port add dev "")" lo
setup_ns comp || die "namespace"
# shellcheck disable=SC2154 # set by setup_ns
veth "$comp" cq0 "$comp" cq1
check "-n NS port add dev TAB: the devices of NS" \
	has "$(offers -n "$comp" port add dev "")" cq0 cq1
check "-netns NS port add dev x to TAB: the devices of NS" \
	has "$(offers -netns "$comp" port add dev cq0 to "")" cq1
check "-n TAB: the namespaces" has "$(offers -n "")" "$comp"
check "bench dev GEN DUT_IN DUT_OUT TAB: the 4th value is a device" \
	has "$(offers bench dev a b c "")" lo
check "bench dev GEN DUT_IN DUT_OUT SINK TAB: keywords again" \
	has "$(offers bench dev a b c d "")" rounds duration
check "gen dev TAB: devices" has "$(offers gen dev "")" lo
cd "$TMPDIR_T" || die "cd"
touch prom.txt plot.png
is "$(offers monitor prom pro)" prom.txt "monitor prom pro TAB: files"
check "bench plot TAB: files" has "$(offers bench plot p)" plot.png prom.txt
check "-b TAB: files" has "$(offers -b pr)" prom.txt
check "-j -b FILE TAB: the objects" has "$(offers -j -b prom.txt "")" port

done_testing
