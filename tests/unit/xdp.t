#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Runs build/tests/test_xdp, which drives the XDP programs of xdp.o
# through BPF_PROG_TEST_RUN, in a namespace of its own with a veth pair
# (the frames "arrive" on xu0) and its maps pinned on lib.sh's private
# bpffs.  The binary prints the TAP itself.
source "$(dirname "$0")/../lib.sh"

BIN=$BUILD/tests/test_xdp
[ -x "$BIN" ] || skip_all "$BIN missing: run make check"

setup_ns unit || { not_ok "namespace for the unit test"; done_testing; }
if ! ip -n "$unit" link add xu0 numtxqueues 1 numrxqueues 1 type veth \
	peer xu1 numtxqueues 1 numrxqueues 1 ||
   ! ip -n "$unit" link set xu0 up || ! ip -n "$unit" link set xu1 up; then
	not_ok "veth pair xu0/xu1 in $unit"
	done_testing
fi

PIN_DIR=/sys/fs/bpf/bpfwd-unit-xdp-$SUFFIX
mkdir -m 0700 "$PIN_DIR" || { not_ok "pin dir $PIN_DIR"; done_testing; }
on_exit rm -rf "$PIN_DIR"

in_ns "$unit" "$BIN" "$PIN_DIR" xu0 xu1
