// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * hook act: the port's program as an act_bpf action of a match-all u32
 * filter (for kernels or setups where cls_bpf is not wanted).  The rest
 * is the tc family's (hook_tc.c).
 */
#include "hook.h"

const struct hook_ops hook_act = {
	.name = "act",
	.id = BPFWD_HOOK_ACT,
	.kws = hook_tc_kws,
	.args = "TC_ARGS",
	.parse = hook_tc_parse,
	.prepare = hook_tc_prepare,
	.attach = hook_tc_attach,
	.replace = hook_tc_replace,
	.detach = hook_tc_detach,
	.attached = hook_tc_attached,
	.show = hook_tc_show,
};
