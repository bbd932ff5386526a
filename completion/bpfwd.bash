# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bash completion for bpfwd(8), iproute2 style: global options, objects,
# commands, keywords and their values (the words of the grammar's
# { a | b } lists), device names for device arguments (of the namespace
# -n names), network namespace names for -n, files for FILE arguments.
#
# Nothing is hard-coded: every word comes from `bpfwd help` and `bpfwd
# OBJECT help` at completion time, so the completion follows the binary
# it completes.  The grammar those print:
#   Usage: bpfwd OBJECT COMMAND ARGS         or  bpfwd OBJECT { a | b } ARGS
#          bpfwd OBJECT [ keyword META ] ... (no command)
#   where  META := { word | word }           a value list
#          SPEC := keyword META [ ... ]      a part of the grammar
# ARGS: a lowercase word is a keyword; the META words after it are its
# values (devices: IN OUT DEV GEN SINK ..._IN ..._OUT; files: *FILE*),
# as are a { a | b } list right after it and one fixed lowercase word
# (`then pass`).  Lines "word: text" explain and are skipped.
# Installed by make install to share/bash-completion/completions/bpfwd.

# _bpfwd_grammar OBJ CMD: reads OBJ's help on stdin and prints, for the
# words after OBJ (CMD empty: the first of them),
#   W word                       words to offer first (commands, keywords)
#   C 0|1                        whether CMD is a command (args after it)
#   K keyword slots              a keyword and how many values follow it
#   V keyword slot dev|file|any  what the slot-th value is
#   V keyword slot = word        a word the slot-th value may be
_bpfwd_grammar()
{
	awk -v obj="$1" -v cmd="$2" '
	function lc(w) { return w ~ /^[a-z][a-z0-9-]*$/ }
	function meta(w) { return w ~ /^[A-Z]/ }
	function addval(k, s, m,    t, n, i) {
		if (m ~ /FILE/)
			spec[k, s, "file"] = 1
		else if (m ~ /^(IN|OUT|DEV|GEN|SINK|[A-Z]+_IN|[A-Z]+_OUT)$/)
			spec[k, s, "dev"] = 1
		else if (m in defs) {
			n = split(defs[m], t, " ")
			for (i = 1; i <= n; i++)
				if (lc(t[i]))
					words[k, s] = words[k, s] " " t[i]
		} else
			spec[k, s, "any"] = 1
	}
	# walk TOKENS: keywords and their values; SPEC names expand
	function walk(s, depth,    t, n, i, k, slot, j) {
		n = split(s, t, " ")
		i = 1
		while (i <= n) {
			if (lc(t[i])) {
				k = t[i++]
				kw[k] = 1
				slot = 0
				while (i <= n) {
					if (meta(t[i])) {
						addval(k, ++slot, t[i++])
					} else if (slot == 0 && t[i] == "{" ) {
						# a value list: words and | up to }
						for (j = i + 1; j <= n && t[j] != "}"; j++)
							if (!lc(t[j]) && t[j] != "|")
								break
						if (t[j] != "}")
							break
						slot++
						for (j = i + 1; t[j] != "}"; j++)
							if (lc(t[j]))
								words[k, slot] = words[k, slot] " " t[j]
						i = j + 1
					} else if (slot == 0 && lc(t[i])) {
						slot++
						words[k, slot] = words[k, slot] " " t[i]
						i++
					} else {
						break
					}
				}
				if (slot > nslots[k])
					nslots[k] = slot
				continue
			}
			if (meta(t[i]) && (t[i] in defs) && depth < 4)
				walk(defs[t[i]], depth + 1)
			i++
		}
	}
	BEGIN { desc = -1 }
	{
		match($0, /^[ \t]*/)
		ind = RLENGTH
		s = substr($0, ind + 1)
		if (desc >= 0 && ind > desc && s !~ /^(Usage:|bpfwd|where)/)
			next
		desc = -1
		if (s ~ /^[a-z][a-z0-9-]*: /) {
			desc = ind
			next
		}
		sub(/^Usage:[ \t]*/, "", s)
		sub(/^where[ \t]+/, "", s)
		if (s ~ /^bpfwd([ \t]|$)/ || s ~ /^[A-Z][A-Z0-9_]* +:=/)
			st[++nst] = s
		else if (nst)
			st[nst] = st[nst] " " s
	}
	END {
		for (i = 1; i <= nst; i++) {
			n = split(st[i], t, /[ \t]+/)
			if (t[2] == ":=") {
				d = ""
				for (j = 3; j <= n; j++)
					d = d " " t[j]
				defs[t[1]] = d
				continue
			}
			if (t[1] != "bpfwd" || t[2] != obj)
				continue
			# the command: { a | b }, or a word not followed by a META
			cmds = ""
			j = 3
			if (t[3] == "{") {
				for (j = 4; j <= n && t[j] != "}"; j++)
					if (lc(t[j]))
						cmds = cmds " " t[j] " "
				j++
			} else if (lc(t[3]) && !meta(t[4])) {
				cmds = " " t[3] " "
				j = 4
			}
			body = ""
			for (; j <= n; j++)
				body = body " " t[j]
			ucmds[i] = cmds
			ubody[i] = body
		}
		iscmd = 0
		for (i in ucmds)
			if (cmd != "" && index(ucmds[i], " " cmd " "))
				iscmd = 1
		for (i in ucmds) {
			if (cmd == "") {
				m = split(ucmds[i], t, " ")
				for (j = 1; j <= m; j++)
					print "W", t[j]
				if (ucmds[i] == "")
					walk(ubody[i], 0)
			} else if (iscmd ? index(ucmds[i], " " cmd " ") : ucmds[i] == "") {
				walk(ubody[i], 0)
			}
		}
		print "C", iscmd
		for (k in kw) {
			print (cmd == "" ? "W " k : "K " k " " nslots[k] + 0)
			for (s = 1; s <= nslots[k]; s++) {
				if ((k, s, "dev") in spec) print "V", k, s, "dev"
				if ((k, s, "file") in spec) print "V", k, s, "file"
				if ((k, s, "any") in spec) print "V", k, s, "any"
				m = split(words[k, s], t, " ")
				for (j = 1; j <= m; j++)
					print "V", k, s, "=", t[j]
			}
		}
	}'
}

# _bpfwd_options BIN: "long-form takes-value" for each global option of
# `BIN help` (OPTIONS := { -j[son] | -n[etns] NAME | ... })
_bpfwd_options()
{
	"$1" help 2>/dev/null | tr '\n' ' ' |
		sed -n 's/.*OPTIONS := {\([^}]*\)}.*/\1/p' | tr '|' '\n' |
		awk '$1 ~ /^-/ { o = $1; gsub(/[][]/, "", o); print o, ($2 != "" ? $2 : "-") }'
}

# _bpfwd_devices NETNS: the device names (of NETNS when set)
_bpfwd_devices()
{
	ip ${1:+-n "$1"} -o link show 2>/dev/null |
		awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'
}

_bpfwd_files()
{
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_bpfwd()
{
	local cur=${COMP_WORDS[COMP_CWORD]} bin=${COMP_WORDS[0]}
	local i=1 w o v opt opts netns='' obj cmd start slot kwd left
	local -A takes=()
	COMPREPLY=()

	opts=$(_bpfwd_options "$bin")
	while read -r o v; do
		[ -n "$o" ] && takes[$o]=$v
	done <<<"$opts"

	# global options, then the object
	while ((i < COMP_CWORD)); do
		w=${COMP_WORDS[i]}
		[[ $w == -* ]] || break
		v=- opt=
		for o in "${!takes[@]}"; do
			[[ ${#w} -ge 2 && $o == "$w"* ]] && v=${takes[$o]} opt=$o
		done
		if [ "$v" != - ]; then
			if ((i + 1 == COMP_CWORD)); then
				case $v in
				*FILE*) _bpfwd_files "$cur" ;;
				NAME | NETNS)
					mapfile -t COMPREPLY < <(compgen -W \
						"$(ip netns list 2>/dev/null | awk '{ print $1 }')" -- "$cur") ;;
				esac
				return 0
			fi
			[[ $opt == -n* ]] && netns=${COMP_WORDS[i + 1]}
			i=$((i + 2))
		else
			i=$((i + 1))
		fi
	done
	if ((i == COMP_CWORD)); then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "${!takes[*]}" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$("$bin" help 2>/dev/null |
				tr '\n' ' ' | sed -n 's/.*OBJECT := {\([^}]*\)}.*/\1/p' |
				tr -d '|') help" -- "$cur")
		fi
		return 0
	fi
	obj=${COMP_WORDS[i]}
	if ((i + 1 == COMP_CWORD)); then
		mapfile -t COMPREPLY < <(compgen -W "$("$bin" "$obj" help 2>/dev/null |
			_bpfwd_grammar "$obj" "" | awk '$1 == "W" { print $2 }') help" -- "$cur")
		return 0
	fi
	cmd=${COMP_WORDS[i + 1]}
	start=$((i + 1))
	local -A nslots=() vals=() used=()
	while read -r w kwd slot v o; do
		case $w in
		C) [ "$kwd" = 1 ] && start=$((i + 2)) ;;
		K) nslots[$kwd]=$slot ;;
		V) vals[$kwd $slot]+=" ${o:-@$v}" ;;
		esac
	done < <("$bin" "$obj" help 2>/dev/null | _bpfwd_grammar "$obj" "$cmd")

	# walk the arguments: a keyword's values are not keywords
	kwd='' left=0 slot=0
	for ((w = start; w < COMP_CWORD; w++)); do
		if ((left > 0)); then
			left=$((left - 1))
			slot=$((slot + 1))
			continue
		fi
		kwd=${COMP_WORDS[w]}
		used[$kwd]=1
		left=${nslots[$kwd]:-0} slot=0
	done
	if ((left > 0)); then
		v=${vals[$kwd $((slot + 1))]:-}
		if [[ " $v " == *" @file "* ]]; then
			_bpfwd_files "$cur"
			return 0
		fi
		[[ " $v " == *" @dev "* ]] && v+=" $(_bpfwd_devices "$netns")"
		v=${v//@dev/}
		v=${v//@any/}
		mapfile -t COMPREPLY < <(compgen -W "$v" -- "$cur" | sort -u)
		return 0
	fi
	v=
	for w in "${!nslots[@]}"; do
		[ -z "${used[$w]:-}" ] && v+=" $w"
	done
	mapfile -t COMPREPLY < <(compgen -W "$v" -- "$cur")
	return 0
}

complete -F _bpfwd bpfwd
