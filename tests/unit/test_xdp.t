#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Runs build/tests/test_xdp, which drives the XDP programs of xdp.o
# through BPF_PROG_TEST_RUN, in a namespace of its own with a veth pair
# (the frames "arrive" on xu0) and its maps pinned on lib.sh's private
# bpffs.  The binary prints the TAP itself.
source "$(dirname "$0")/../lib.sh"

run_unit xdp xu0 xu1
