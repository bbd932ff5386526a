// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * hook act: the port's program as an act_bpf action of a match-all u32
 * filter (for kernels or setups where cls_bpf is not wanted).  The rest
 * is the tc family's (hook_tc.c).
 */
#include "hook.h"

const struct hook_ops hook_act = HOOK_TC_FAMILY("act", BPFWD_HOOK_ACT);
