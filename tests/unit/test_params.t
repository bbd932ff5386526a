#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Runs build/tests/test_params, the keyword table parser on its own
# (tests/unit/test_params.c).  The binary prints the TAP itself.
source "$(dirname "$0")/../lib.sh"

BIN=$BUILD/tests/test_params
[ -x "$BIN" ] || skip_all "$BIN missing: run make check"
"$BIN"
