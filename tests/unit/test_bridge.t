#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Runs build/tests/test_bridge, which drives br_xdp of bridge.o
# through BPF_PROG_TEST_RUN, in a namespace of its own with a veth pair
# (the frames "arrive" on bu0) and its maps pinned on lib.sh's private
# bpffs.  The binary prints the TAP itself.
source "$(dirname "$0")/../lib.sh"

run_unit bridge bu0 bu1
