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
 *
 * Rows of the other kinds take a pps row and say what else: TCP(row)
 * measures TCP through it set up both ways (tcp-NAME, compared with
 * tcp-bridge), RTT(row) and RTT_LOAD(row) round trips with gen idle or
 * sending (rtt-NAME, rtt-NAME-load), ENTRIES(row, n, limit) and FLOWS(row, n, limit)
 * its rate with n entries in the ports table or n flows from gen, and
 * PEER(cmd) runs another forwarder on the dut (XDP_FORWARD(mode) is
 * xdp-forward's: `load -f fib -F mode`, then `unload`).
 *
 * Rows of another topology than the cross-connect one name it in .topo
 * (topology bridge, router: topo_bridge.c, topo_router.c); the topology
 * is up before the rows, which only add their forwarder to it:
 *
 *	{ .name = "br-xdp", .desc = "...", BR_FAST("xdp") }
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "bench.h"
#include "lib/util.h"

const char *const bench_limit_names[] = {
	[LIMIT_TC] = "tc-drop", [LIMIT_XDP] = "xdp-fixed",
};

#define PORT(md, hk, ...) \
	.setup = port_setup, .teardown = port_teardown, \
	.port = { .mode = md, .hook = hk, __VA_ARGS__ }
#define TCP(row) \
	.kind = KIND_TCP, .of = &row, .ref = &tcp_bridge, \
	.skip = need_two_way, .setup = two_way_setup, \
	.teardown = two_way_teardown
#define RTT(row, k, rf) \
	.kind = k, .of = &row, .ref = &rf, .skip = need_two_way, \
	.setup = two_way_setup, .teardown = two_way_teardown
#define ENTRIES(row, n, lim) \
	.of = &row, .entries = n, .skip = need_entries, \
	.setup = scale_setup, .teardown = scale_teardown, .limit = lim
#define FLOWS(row, n, lim) \
	.of = &row, .flows = n, .setup = scale_setup, \
	.teardown = scale_teardown, .limit = lim
#define PEER_ROW(cmd) \
	.peer = cmd, .skip = need_peer, .setup = peer_setup, \
	.teardown = peer_teardown
#define PEER(cmd) PEER_ROW(cmd), .limit = LIMIT_XDP
/* xdp-forward loads and exits; its unload takes it off */
#define XDP_FORWARD(mode) \
	PEER_ROW("xdp-forward load -f fib -F " mode), \
	.peer_unload = "xdp-forward unload"
#define MON(row, which) \
	.skip = need_mon, .setup = mon_setup, .teardown = mon_teardown, \
	.off = &row, .mon = which

#define BR_FAST(hk) \
	.topo = TOPO_BRIDGE, .hook = hk, \
	.setup = br_fast_setup, .teardown = br_fast_teardown
#define ROUTE(hk) \
	.topo = TOPO_ROUTER, .hook = hk, \
	.setup = route_setup, .teardown = route_teardown

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
/* what a devmap costs over a plain redirect, with nothing of bpfwd's */
static const struct method xdp_map_fixed = {
	.name = "xdp-map-fixed",
	.desc = "XDP bpf_redirect_map through a one-slot devmap, no table (the devmap row's own limit)",
	.setup = xdp_map_fixed_setup, .teardown = xdp_prog_teardown,
	.limit = LIMIT_XDP,
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
/* TCP: iperf3 gen -> sink, Gbit/s received and retransmits */
static const struct method tcp_bridge = {
	.name = "tcp-bridge", .desc = "TCP (iperf3) through the Linux bridge",
	TCP(bridge),
};
static const struct method tcp_redirect = {
	.name = "tcp-redirect", .desc = "TCP (iperf3) through redirect, both ways",
	TCP(redirect),
};
static const struct method tcp_tcx = {
	.name = "tcp-tcx", .desc = "TCP (iperf3) through tcx, both ways",
	TCP(tcx),
};
static const struct method tcp_xdp = {
	.name = "tcp-xdp", .desc = "TCP (iperf3) through xdp, both ways, as configured",
	TCP(xdp),
};
static const struct method tcp_xdp_csum_off = {
	.name = "tcp-xdp-csum-off",
	.desc = "TCP (iperf3) through xdp, tx checksum offload off at gen and sink",
	TCP(xdp), .csum_off = true,
};
/* round trips: ping gen -> sink, 500 a second */
static const struct method rtt_bridge = {
	.name = "rtt-bridge", .desc = "ping round trip through the Linux bridge",
	RTT(bridge, KIND_RTT, rtt_bridge),
};
/* the hooks' own round trips: a hard-coded redirect each way */
static const struct method rtt_redirect_fixed = {
	.name = "rtt-redirect-fixed",
	.desc = "ping round trip through redirect-fixed (tc's own limit)",
	RTT(redirect_fixed, KIND_RTT, rtt_bridge),
};
static const struct method rtt_xdp_fixed = {
	.name = "rtt-xdp-fixed",
	.desc = "ping round trip through xdp-fixed (XDP's own limit)",
	RTT(xdp_fixed, KIND_RTT, rtt_bridge),
};
static const struct method rtt_redirect = {
	.name = "rtt-redirect", .desc = "ping round trip through redirect",
	RTT(redirect, KIND_RTT, rtt_bridge),
};
static const struct method rtt_tcx = {
	.name = "rtt-tcx", .desc = "ping round trip through tcx",
	RTT(tcx, KIND_RTT, rtt_bridge),
};
static const struct method rtt_xdp = {
	.name = "rtt-xdp", .desc = "ping round trip through xdp",
	RTT(xdp, KIND_RTT, rtt_bridge),
};
static const struct method rtt_bridge_load = {
	.name = "rtt-bridge-load",
	.desc = "ping round trip through the bridge, gen sending as in the pps rows",
	RTT(bridge, KIND_RTT_LOAD, rtt_bridge_load),
};
static const struct method rtt_redirect_fixed_load = {
	.name = "rtt-redirect-fixed-load",
	.desc = "ping round trip through redirect-fixed, gen sending",
	RTT(redirect_fixed, KIND_RTT_LOAD, rtt_bridge_load),
};
static const struct method rtt_xdp_fixed_load = {
	.name = "rtt-xdp-fixed-load",
	.desc = "ping round trip through xdp-fixed, gen sending",
	RTT(xdp_fixed, KIND_RTT_LOAD, rtt_bridge_load),
};
static const struct method rtt_redirect_load = {
	.name = "rtt-redirect-load",
	.desc = "ping round trip through redirect, gen sending",
	RTT(redirect, KIND_RTT_LOAD, rtt_bridge_load),
};
static const struct method rtt_tcx_load = {
	.name = "rtt-tcx-load", .desc = "ping round trip through tcx, gen sending",
	RTT(tcx, KIND_RTT_LOAD, rtt_bridge_load),
};
static const struct method rtt_xdp_load = {
	.name = "rtt-xdp-load", .desc = "ping round trip through xdp, gen sending",
	RTT(xdp, KIND_RTT_LOAD, rtt_bridge_load),
};
/* scale: the 1-entry, 8-flow points are the redirect and xdp rows */
static const struct method redirect_e100 = {
	.name = "redirect-100-ports", .desc = "redirect, 100 entries in the ports table",
	ENTRIES(redirect, 100, LIMIT_TC),
};
static const struct method redirect_e1000 = {
	.name = "redirect-1000-ports", .desc = "redirect, 1000 entries in the ports table",
	ENTRIES(redirect, 1000, LIMIT_TC),
};
static const struct method redirect_e10k = {
	.name = "redirect-10k-ports", .desc = "redirect, 10000 entries in the ports table",
	ENTRIES(redirect, 10000, LIMIT_TC),
};
static const struct method redirect_e100k = {
	.name = "redirect-100k-ports",
	.desc = "redirect, 100000 entries in the ports table",
	ENTRIES(redirect, 100000, LIMIT_TC),
};
static const struct method xdp_e100 = {
	.name = "xdp-100-ports", .desc = "xdp, 100 entries in the ports table",
	ENTRIES(xdp, 100, LIMIT_XDP),
};
static const struct method xdp_e1000 = {
	.name = "xdp-1000-ports", .desc = "xdp, 1000 entries in the ports table",
	ENTRIES(xdp, 1000, LIMIT_XDP),
};
static const struct method xdp_e10k = {
	.name = "xdp-10k-ports", .desc = "xdp, 10000 entries in the ports table",
	ENTRIES(xdp, 10000, LIMIT_XDP),
};
static const struct method xdp_e100k = {
	.name = "xdp-100k-ports", .desc = "xdp, 100000 entries in the ports table",
	ENTRIES(xdp, 100000, LIMIT_XDP),
};
static const struct method xdp_f1 = {
	.name = "xdp-1-flow", .desc = "xdp, gen sending one flow", FLOWS(xdp, 1, LIMIT_XDP),
};
static const struct method xdp_f64 = {
	.name = "xdp-64-flows", .desc = "xdp, gen sending 64 flows", FLOWS(xdp, 64, LIMIT_XDP),
};
static const struct method xdp_f1k = {
	.name = "xdp-1024-flows", .desc = "xdp, gen sending 1024 flows",
	FLOWS(xdp, 1024, LIMIT_XDP),
};
static const struct method xdp_f16k = {
	.name = "xdp-16384-flows", .desc = "xdp, gen sending 16384 flows",
	FLOWS(xdp, 16384, LIMIT_XDP),
};
/* peers: other XDP forwarders */
static const struct method xdp_bench_redirect = {
	.name = "xdp-bench-redirect",
	.desc = "xdp-tools: xdp-bench redirect IN OUT (bpf_redirect)",
	PEER("xdp-bench redirect"),
};
static const struct method xdp_bench_redirect_map = {
	.name = "xdp-bench-redirect-map",
	.desc = "xdp-tools: xdp-bench redirect-map IN OUT (devmap)",
	PEER("xdp-bench redirect-map"),
};
static const struct method xdp_forward = {
	.name = "xdp-forward",
	.desc = "xdp-tools: xdp-forward load -f fib -F full IN OUT (FIB lookup, the dut a router)",
	XDP_FORWARD("full"), .limit = LIMIT_XDP, .peer_router = true,
};
static const struct method tc_drop = {
	.name = "tc-drop", .desc = "limit: tc ingress drop at the dut (skb)",
	.setup = tc_drop_setup, .teardown = tc_prog_teardown,
};
static const struct method xdp_drop = {
	.name = "xdp-drop", .desc = "limit: XDP_DROP at the dut's ingress",
	.setup = xdp_drop_setup, .teardown = xdp_prog_teardown,
};

/* topology bridge: N ports, M stations, all in the fdb */
static const struct method br_linux = {
	.name = "br-linux",
	.desc = "Linux bridge of the N ports, M stations in its fdb (bridge-nf-call-* off)",
	.topo = TOPO_BRIDGE, .setup = topo_noop, .teardown = topo_noop_down,
};
static const struct method br_tc = {
	.name = "br-tc", .desc = "the bridge with bpfwd bridge add hook tc, bpfwd daemon running",
	BR_FAST("tc"),
};
static const struct method br_tcx = {
	.name = "br-tcx", .desc = "the bridge with bpfwd bridge add hook tcx, bpfwd daemon running",
	.skip = need_tcx, BR_FAST("tcx"),
};
static const struct method br_xdp = {
	.name = "br-xdp", .desc = "the bridge with bpfwd bridge add hook xdp, bpfwd daemon running",
	BR_FAST("xdp"),
};
/* topology router: gen and sink in two subnets, R routes */
static const struct method kernel_fwd = {
	.name = "kernel-forward", .desc = "the kernel's IPv4 forwarding, R routes",
	.topo = TOPO_ROUTER, .setup = topo_noop, .teardown = topo_noop_down,
};
/* the route rows' ceilings: the hook's cost in this topology, with no
 * FIB lookup and no rewrite (the sink counts whatever MAC and TTL)
 */
static const struct method rt_tc_fixed = {
	.name = "rt-tc-fixed",
	.desc = "limit: tc bpf_redirect to the sink's port, no FIB lookup or rewrite (route-tc/tcx's ceiling)",
	.topo = TOPO_ROUTER, .setup = fixed_setup, .teardown = tc_prog_teardown,
};
static const struct method rt_xdp_fixed = {
	.name = "rt-xdp-fixed",
	.desc = "limit: XDP bpf_redirect to the sink's port, no FIB lookup or rewrite (route-xdp's ceiling)",
	.topo = TOPO_ROUTER, .setup = xdp_fixed_setup,
	.teardown = xdp_prog_teardown,
};
static const struct method route_tc = {
	.name = "route-tc", .desc = "bpfwd route add hook tc (bpf_fib_lookup, bpf_redirect)",
	ROUTE("tc"),
};
static const struct method route_tcx = {
	.name = "route-tcx", .desc = "bpfwd route add hook tcx",
	.skip = need_tcx, ROUTE("tcx"),
};
static const struct method route_xdp = {
	.name = "route-xdp", .desc = "bpfwd route add hook xdp (native)",
	ROUTE("xdp"),
};
static const struct method xdp_forward_fib = {
	.name = "xdp-forward-fib",
	.desc = "xdp-tools' xdp-forward load -f fib -F full (native), a peer",
	.topo = TOPO_ROUTER, XDP_FORWARD("full"),
};
static const struct method xdp_forward_fib_direct = {
	.name = "xdp-forward-fib-direct",
	.desc = "xdp-tools' xdp-forward load -f fib -F direct (BPF_FIB_LOOKUP_DIRECT), a peer",
	.topo = TOPO_ROUTER, XDP_FORWARD("direct"),
};

const struct topology bench_topos[TOPO_N] = {
	[TOPO_CROSS] = { .name = "cross", .ref = "bridge", .ref_short = "bridge" },
	[TOPO_BRIDGE] = {
		.name = "bridge", .ref = "br-linux", .ref_short = "bridge",
		.build = topo_bridge_build, .counted = topo_bridge_counted,
		.gen = topo_bridge_gen,
	},
	[TOPO_ROUTER] = {
		.name = "router", .ref = "kernel-forward", .ref_short = "kernel",
		.build = topo_router_build, .gen = topo_router_gen,
	},
};

const struct method *const bench_methods[] = {
	&bridge, &bridge_nf, &mirred, &redirect, &redirect_fixed, &clone,
	&tcx, &act, &act_clone, &xdp_fixed, &xdp, &xdp_map_fixed, &devmap,
	&cpumap, &cpumap_pass,
	&redirect_mon_errors, &redirect_mon_all, &xdp_mon_errors, &xdp_mon_all,
	&xdp_loop, &xdp_loop_mon_errors, &xdp_loop_mon_all,
	&xdp_loop_mon_nobulk, &tc_drop, &xdp_drop,
	&xdp_bench_redirect, &xdp_bench_redirect_map, &xdp_forward,
	&redirect_e100, &redirect_e1000, &redirect_e10k, &redirect_e100k,
	&xdp_e100, &xdp_e1000, &xdp_e10k, &xdp_e100k,
	&xdp_f1, &xdp_f64, &xdp_f1k, &xdp_f16k,
	&tcp_bridge, &tcp_redirect, &tcp_tcx, &tcp_xdp, &tcp_xdp_csum_off,
	&rtt_bridge, &rtt_redirect_fixed, &rtt_redirect, &rtt_tcx,
	&rtt_xdp_fixed, &rtt_xdp,
	&rtt_bridge_load, &rtt_redirect_fixed_load, &rtt_redirect_load,
	&rtt_tcx_load, &rtt_xdp_fixed_load, &rtt_xdp_load,
	&br_linux, &br_tc, &br_tcx, &br_xdp,
	&kernel_fwd, &rt_tc_fixed, &route_tc, &route_tcx, &rt_xdp_fixed,
	&route_xdp, &xdp_forward_fib,
	&xdp_forward_fib_direct,
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

const char *const bench_kind_names[] = {
	[KIND_PPS] = "pps", [KIND_TCP] = "tcp", [KIND_RTT] = "rtt",
	[KIND_RTT_LOAD] = "rtt-load",
};

const char *method_reason(const struct method *m, const char *fmt, ...)
{
	static char reasons[ARRAY_SIZE(bench_methods)][ERRLEN];
	size_t i;
	va_list ap;

	for (i = 0; i < bench_nmethods && bench_methods[i] != m; i++)
		;
	if (i == bench_nmethods)
		return "no reason kept";
	va_start(ap, fmt);
	vsnprintf(reasons[i], ERRLEN, fmt, ap);
	va_end(ap);
	return reasons[i];
}

const struct method *method_base(const struct method *m)
{
	return m->off ? m->off : m;
}
