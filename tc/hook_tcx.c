// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * hook tcx: the port's program in a tcx bpf_link (Linux 6.6 and later),
 * pinned next to the table so that it outlives the command.  The rest is
 * the tc family's (hook_tc.c).
 */
#include "hook.h"

const struct hook_ops hook_tcx = HOOK_TC_FAMILY("tcx", BPFWD_HOOK_TCX);
