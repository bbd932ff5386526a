#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd bench's peer rows find xdp-bench and xdp-forward through PATH
# and skip with the peer's own reason when it does not attach.  The
# peers here are scripts first in PATH that fail the way real ones do:
# an xdp-bench that prints what xdp-tools 1.3.1 prints on a kernel
# without the xdp_redirect_map_err tracepoint (>= 6.16) and exits 4,
# and an xdp-forward whose load exits 0 without attaching anything.
# Each records the arguments it was given, so the test also sees the
# command lines the bench runs (xdp-forward 1.5's -f fib -F full).
# They measure nothing: the rows must be skipped, never ok.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v jq >/dev/null || skip_all "jq missing"

pins0=$(pins)
fake=$TMPDIR_T/peers
mkdir -p "$fake"
cat >"$fake/xdp-bench" <<'SH'
#!/bin/sh
echo "$*" >>"${0%/*}/xdp-bench.args"
if [ "$2" = --version ]; then
	echo "xdp-bench version 1.3.1 using libbpf version 1.1.2"
	exit 0
fi
echo "libbpf: prog 'tp_xdp_redirect_map_err': failed to find kernel BTF type ID of 'xdp_redirect_map_err': -3" >&2
echo "libbpf: prog 'tp_xdp_redirect_map_err': failed to prepare load attributes: -3" >&2
echo "Failed to attach XDP program: No such process" >&2
exit 4
SH
cat >"$fake/xdp-forward" <<'SH'
#!/bin/sh
echo "$*" >>"${0%/*}/xdp-forward.args"
[ "$2" = --version ] && echo "xdp-forward version 1.6.3 using libbpf version 1.5.0"
exit 0
SH
chmod 755 "$fake/xdp-bench" "$fake/xdp-forward"

js=$(PATH=$fake:$PATH "$BPFWD" -j bench method xdp-bench-redirect,xdp-forward \
	rounds 1 duration 1 2>"$TMPDIR_T/err")
rc=$?
is "$rc" 0 "bench with failing peers exits 0"
[ "$rc" = 0 ] || diag "$(tail -3 "$TMPDIR_T/err")"
row() { jq -r ".methods[] | select(.name == \"$1\") | $2" <<<"$js"; }

is "$(row xdp-bench-redirect .status)" skipped "xdp-bench that exits: its row is skipped"
like "$(row xdp-bench-redirect .reason)" \
	"^xdp-bench redirect \(xdp-bench version 1\.3\.1 using libbpf version 1\.1\.2\) exits \(status 4\) instead of attaching: libbpf: prog 'tp_xdp_redirect_map_err': failed to find kernel BTF type ID of 'xdp_redirect_map_err': -3; Failed to attach XDP program: No such process \(a program of it needs a kernel BTF type this kernel does not have\)$" \
	"with its version, the BTF type it misses and its last line"
like "$(head -1 "$fake/xdp-bench.args" 2>/dev/null)" "^redirect [^ ]+ [^ ]+$" \
	"xdp-bench ran as: redirect IN OUT"

is "$(row xdp-forward .status)" skipped "xdp-forward that attaches nothing: its row is skipped"
like "$(row xdp-forward .reason)" \
	"^xdp-forward load -f fib -F full \(xdp-forward version 1\.6\.3 using libbpf version 1\.5\.0\) exits \(status 0\) instead of attaching: exited 0 with no XDP program on " \
	"and says it exited 0 with nothing on IN"
like "$(head -1 "$fake/xdp-forward.args" 2>/dev/null)" "^load -f fib -F full [^ ]+ [^ ]+$" \
	"xdp-forward ran as: load -f fib -F full IN OUT (xdp-tools 1.5 options)"
unlike() { if [[ "$1" =~ $2 ]]; then not_ok "$3"; diag "$1"; else ok "$3"; fi; }
unlike "$(cat "$fake/xdp-forward.args")" "^unload" "nothing attached: no unload run"

# router topology: both FIB modes, skipped the same way
js=$(PATH=$fake:$PATH "$BPFWD" -j bench topology router routes 10 \
	method xdp-forward-fib,xdp-forward-fib-direct rounds 1 duration 1 2>"$TMPDIR_T/err")
is "$?" 0 "bench topology router with a failing xdp-forward exits 0"
is "$(row xdp-forward-fib-direct .status)" skipped "xdp-forward-fib-direct: skipped"
like "$(grep -c -- '-F direct' "$fake/xdp-forward.args")" "^[1-9]" \
	"xdp-forward-fib-direct ran load -f fib -F direct"
is "$(pins)" "$pins0" "no pins left behind"

done_testing
