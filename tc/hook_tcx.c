// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * hook tcx: the port's program in a tcx bpf_link (Linux 6.6 and later),
 * pinned next to the table so that it outlives the command.  The rest is
 * the tc family's (hook_tc.c).
 */
#include "hook.h"

const struct hook_ops hook_tcx = {
	.name = "tcx",
	.id = BPFWD_HOOK_TCX,
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
