#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Runs build/tests/test_fuzz, which sends random and mutated frames
# through every packet program of every object in build/bpf/ with
# BPF_PROG_TEST_RUN and checks verdicts, redirect targets and counters,
# in a namespace of its own with a veth pair (clones really leave) and
# its maps pinned on lib.sh's private bpffs.  FUZZ_FRAMES frames per
# section (make check: the binary's default, a few thousand; make fuzz:
# 100000), FUZZ_SEED replays a run, FUZZ_ONLY=OBJ/PROG narrows it.
# The binary prints the TAP itself.
source "$(dirname "$0")/../lib.sh"

run_unit fuzz fz0 fz1
