// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The rows of bpfwd bench, in the order they run within a round: the
 * one place a method is defined.  To add one, add an entry here: a
 * name, what it is, an optional check that says why it cannot run here,
 * its setup and teardown on the dut (the m_*.c files have one kind of
 * row each) and which limit row it is compared with (the "of limit"
 * column: tc-drop for the skb path, xdp-fixed, a hard-coded XDP
 * redirect, for the XDP path; a limit row runs whenever a row compared
 * with it does).  A row driven by
 * bpfwd port only needs port_setup, port_teardown and its port_spec,
 * e.g. the XDP row:
 *
 *	{ .name = "xdp", .desc = "XDP bpf_redirect, bpfwd port hook xdp",
 *	  PORT("redirect", "xdp"), .limit = LIMIT_XDP }
 *
 * A row with the monitor running is named OFF+mon-errors (mon-all,
 * mon-nobulk), names OFF in .off and takes MON(): the OFF row set up as
 * it is, with the monitor running (and compared with OFF's limit).
 */
#include <stddef.h>

#include "bench.h"
#include "lib/util.h"

const char *const bench_limit_names[] = {
	[LIMIT_TC] = "tc-drop", [LIMIT_XDP] = "xdp-fixed",
};

#define PORT(md, hk, ...) \
	.setup = port_setup, .teardown = port_teardown, \
	.port = { .mode = md, .hook = hk, __VA_ARGS__ }
#define MON(row, which) \
	.skip = need_mon, .setup = mon_setup, .teardown = mon_teardown, \
	.off = &row, .mon = which

static const struct method bridge = {
	.name = "bridge",
	.desc = "Linux bridge between the dut ports (bridge-nf-call-* off)",
	.setup = bridge_setup, .teardown = bridge_teardown, .limit = LIMIT_TC,
};
static const struct method bridge_nf = {
	.name = "bridge-nf",
	.desc = "Linux bridge with br_netfilter's bridge-nf-call-* on",
	.skip = need_br_nf, .setup = bridge_setup, .teardown = bridge_teardown,
	.br_nf = true, .limit = LIMIT_TC,
};
static const struct method mirred = {
	.name = "mirred", .desc = "tc u32 + act_mirred egress redirect",
	.setup = mirred_setup, .teardown = mirred_teardown, .limit = LIMIT_TC,
};
static const struct method redirect = {
	.name = "redirect", .desc = "cls_bpf da bpf_redirect, bpfwd port hook tc",
	PORT("redirect", "tc"), .limit = LIMIT_TC,
};
static const struct method redirect_fixed = {
	.name = "redirect-fixed",
	.desc = "cls_bpf da bpf_redirect to a fixed ifindex, no table",
	.setup = fixed_setup, .teardown = tc_prog_teardown, .limit = LIMIT_TC,
};
static const struct method clone = {
	.name = "clone",
	.desc = "cls_bpf da bpf_clone_redirect + drop, bpfwd port hook tc",
	PORT("clone", "tc"), .limit = LIMIT_TC,
};
static const struct method tcx = {
	.name = "tcx", .desc = "bpf_redirect, bpfwd port hook tcx",
	.skip = need_tcx, PORT("redirect", "tcx"), .limit = LIMIT_TC,
};
static const struct method act = {
	.name = "act", .desc = "u32 + act_bpf bpf_redirect, bpfwd port hook act",
	.skip = need_act_bpf, PORT("redirect", "act"), .limit = LIMIT_TC,
};
static const struct method act_clone = {
	.name = "act-clone",
	.desc = "u32 + act_bpf bpf_clone_redirect, bpfwd port hook act",
	.skip = need_act_bpf, PORT("clone", "act"), .limit = LIMIT_TC,
};
/* the XDP path's limit: what bpfwd's XDP rows are measured against */
static const struct method xdp_fixed = {
	.name = "xdp-fixed",
	.desc = "XDP bpf_redirect to a fixed ifindex, no table (the XDP rows' limit)",
	.setup = xdp_fixed_setup, .teardown = xdp_prog_teardown,
	.limit = LIMIT_XDP,
};
static const struct method xdp = {
	.name = "xdp", .desc = "XDP bpf_redirect, bpfwd port hook xdp",
	PORT("redirect", "xdp"), .limit = LIMIT_XDP,
};
static const struct method devmap = {
	.name = "devmap",
	.desc = "XDP redirect through a devmap, bpfwd port hook xdp mode map",
	PORT("map", "xdp"), .limit = LIMIT_XDP,
};
/* the queue's CPU is picked at setup (m_port.c) */
static const struct method cpumap = {
	.name = "cpumap", .desc = "XDP to a cpumap queue, its kthread sends on to OUT",
	PORT(NULL, "xdp", .cpumap = true), .limit = LIMIT_XDP,
};
static const struct method cpumap_pass = {
	.name = "cpumap-pass",
	.desc = "XDP to a cpumap queue, skbs there, then a tc redirect",
	PORT(NULL, "xdp", .cpumap = true, .then = "pass"), .limit = LIMIT_XDP,
};
static const struct method redirect_mon_errors = {
	.name = "redirect+mon-errors",
	.desc = "redirect, bpfwd monitor (errors only) running",
	MON(redirect, MON_ERRORS),
};
static const struct method redirect_mon_all = {
	.name = "redirect+mon-all", .desc = "redirect, bpfwd monitor all running",
	MON(redirect, MON_ALL),
};
static const struct method xdp_mon_errors = {
	.name = "xdp+mon-errors", .desc = "xdp, bpfwd monitor (errors only) running",
	MON(xdp, MON_ERRORS),
};
static const struct method xdp_mon_all = {
	.name = "xdp+mon-all", .desc = "xdp, bpfwd monitor all running",
	MON(xdp, MON_ALL),
};
static const struct method xdp_loop = {
	.name = "xdp-loop",
	.desc = "XDP redirect + drop, both on gen's CPU (no dut thread)",
	.skip = need_loop, .setup = loop_setup, .teardown = loop_teardown,
	.loop = true,
};
static const struct method xdp_loop_mon_errors = {
	.name = "xdp-loop+mon-errors",
	.desc = "xdp-loop, bpfwd monitor (errors only) running",
	MON(xdp_loop, MON_ERRORS),
};
static const struct method xdp_loop_mon_all = {
	.name = "xdp-loop+mon-all", .desc = "xdp-loop, bpfwd monitor all running",
	MON(xdp_loop, MON_ALL),
};
static const struct method xdp_loop_mon_nobulk = {
	.name = "xdp-loop+mon-nobulk",
	.desc = "xdp-loop, bpfwd monitor nobulk running",
	MON(xdp_loop, MON_NOBULK),
};
static const struct method tc_drop = {
	.name = "tc-drop", .desc = "limit: tc ingress drop at the dut (skb)",
	.setup = tc_drop_setup, .teardown = tc_prog_teardown,
};
static const struct method xdp_drop = {
	.name = "xdp-drop", .desc = "limit: XDP_DROP at the dut's ingress",
	.setup = xdp_drop_setup, .teardown = xdp_prog_teardown,
};

const struct method *const bench_methods[] = {
	&bridge, &bridge_nf, &mirred, &redirect, &redirect_fixed, &clone,
	&tcx, &act, &act_clone, &xdp_fixed, &xdp, &devmap, &cpumap, &cpumap_pass,
	&redirect_mon_errors, &redirect_mon_all, &xdp_mon_errors, &xdp_mon_all,
	&xdp_loop, &xdp_loop_mon_errors, &xdp_loop_mon_all,
	&xdp_loop_mon_nobulk, &tc_drop, &xdp_drop,
};

const size_t bench_nmethods = ARRAY_SIZE(bench_methods);

const struct method *method_find(const char *name)
{
	size_t i;

	for (i = 0; i < bench_nmethods; i++)
		if (is_word(name, bench_methods[i]->name))
			return bench_methods[i];
	return NULL;
}

const struct method *method_base(const struct method *m)
{
	return m->off ? m->off : m;
}
