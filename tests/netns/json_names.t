#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Device names are bytes, not text: Linux takes any byte in an interface
# name but '/', ':' and blanks.  With -j every such name must still come
# out as valid JSON and valid UTF-8: a well-formed UTF-8 name unchanged,
# a byte that starts no UTF-8 sequence as U+FFFD.  Checked on port show,
# stats and probe, and on an error that quotes the name.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

setup_ns dut peer || die "netns"
bad=$'x\xff\xc3'	# 0xff never starts a sequence; 0xc3 is cut short
good=$'\xc3\xbc0'	# "ü0"
veth "$dut" "$bad" "$peer" p0
veth "$dut" "$good" "$peer" p1

# json_utf8 DESC FILE [NAME]: FILE is one JSON document (or one per line)
# in UTF-8; with NAME, that string occurs in it as a value
json_utf8() {
	local desc=$1 file=$2 want=${3:-}
	if python3 - "$file" "$want" <<'PY'
import json, sys
raw = open(sys.argv[1], 'rb').read()
text = raw.decode('utf-8')           # raises on anything not UTF-8
docs = []
try:
    docs = [json.loads(text)]
except ValueError:
    docs = [json.loads(l) for l in text.splitlines() if l.strip()]
want = sys.argv[2]
if want:
    def walk(v):
        if isinstance(v, dict):
            return any(walk(x) for x in v.values())
        if isinstance(v, list):
            return any(walk(x) for x in v)
        return v == want
    if not any(walk(d) for d in docs):
        sys.exit('%r not found in %s' % (want, text[:300]))
PY
	then ok "$desc"; else not_ok "$desc"; fi
}

check "port add: names that are not text and that are" \
	bpfwd_ns "$dut" port add dev "$bad" to "$good" hook tc
bpfwd_ns "$dut" -j port show >"$TMPDIR_T/show" 2>/dev/null
json_utf8 "port show -j: a name that is not UTF-8 comes out as U+FFFD" \
	"$TMPDIR_T/show" $'x\ufffd\ufffd'
json_utf8 "port show -j: a UTF-8 name comes out unchanged" \
	"$TMPDIR_T/show" "$good"
bpfwd_ns "$dut" -j stats >"$TMPDIR_T/stats" 2>/dev/null
json_utf8 "stats -j: valid UTF-8 JSON" "$TMPDIR_T/stats" $'x\ufffd\ufffd'
bpfwd_ns "$dut" -j probe >"$TMPDIR_T/probe" 2>/dev/null
json_utf8 "probe -j: valid UTF-8 JSON" "$TMPDIR_T/probe"

# an error in JSON mode quotes the word it refuses
bpfwd_ns "$dut" -j port add dev "$bad" to $'n\xfe' hook tc \
	>"$TMPDIR_T/err" 2>&1
json_utf8 "an error with -j quoting a non-UTF-8 word is valid UTF-8 JSON" \
	"$TMPDIR_T/err"

check "port del by such a name" bpfwd_ns "$dut" port del dev "$bad"
done_testing
