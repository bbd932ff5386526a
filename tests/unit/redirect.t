#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Runs build/tests/test_redirect, which drives every section of
# redirect.o through BPF_PROG_TEST_RUN, inside a namespace of its own
# with a veth pair (bpf_clone_redirect really sends its clone, so it
# must land there) and with its maps pinned on lib.sh's private bpffs.
# The binary prints the TAP itself.
source "$(dirname "$0")/../lib.sh"

BIN=$BUILD/tests/test_redirect
[ -x "$BIN" ] || skip_all "$BIN missing: run make check"

setup_ns unit || { not_ok "namespace for the unit test"; done_testing; }
if ! ip -n "$unit" link add rd0 numtxqueues 1 numrxqueues 1 type veth \
	peer rd1 numtxqueues 1 numrxqueues 1 ||
   ! ip -n "$unit" link set rd0 up || ! ip -n "$unit" link set rd1 up; then
	not_ok "veth pair rd0/rd1 in $unit"
	done_testing
fi

PIN_DIR=/sys/fs/bpf/bpfwd-unit-$SUFFIX
mkdir -m 0700 "$PIN_DIR" || { not_ok "pin dir $PIN_DIR"; done_testing; }
on_exit rm -rf "$PIN_DIR"

in_ns "$unit" "$BIN" "$PIN_DIR" rd0 rd1
