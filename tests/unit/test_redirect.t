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

run_unit redirect rd0 rd1
