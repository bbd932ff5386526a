// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench: how much faster than the Linux bridge is each way of
 * forwarding, measured on this machine, in one command.
 *
 * It builds gen --veth-- dut --veth-- sink in namespaces of its own (or
 * uses four given devices), then, round after round, sets up each
 * method on the dut, offers XDP live frames from gen pinned to one CPU
 * and counts what reaches the sink for a fixed window.  Methods are
 * interleaved (each round starts one further down the list) and each is
 * compared with the bridge measured in the same round, because on a
 * small shared VM the rate of one window varies far more than the
 * difference between methods.  Medians and spreads of those per-round
 * ratios are the result; the CPU time other tasks took during each window
 * is logged and noisy windows are left out of the medians.
 *
 * Every forwarding row is counted the same way: by benchsink.o's
 * counter on the sink port (count xdp, the default, or count tc), so no
 * row pays for a sink stack.  The drop rows (tc-drop, xdp-drop) drop
 * at the dut's ingress and are counted by their own drop program.
 * Each row is also compared with its path's limit: tc-drop for the skb
 * path, xdp-fixed (a hard-coded XDP redirect, counted at the sink as
 * the others) for the XDP path.
 *
 * The monitor rows (redirect+mon-errors, ...) are another row (their
 * "off" row) with bpfwd monitor's programs attached by this process for
 * the window; they report, beside the bridge ratio, the per-round ratio
 * to that row and the ns per packet the monitor adds.
 *
 * With topology bridge or router the dut is a Linux bridge of many
 * ports and stations or a router with many routes (topo_bridge.c,
 * topo_router.c), and the rows are that topology's, compared with its
 * reference row (the Linux bridge, the kernel's forwarding).
 *
 * This file is the command line and the command; bench.h lists the
 * others.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "bench.h"
#include "objects.h"
#include "lib/livegen.h"
#include "lib/params.h"
#include "lib/ports.h"
#include "lib/util.h"

#define NOISE_PCT_DEF	25	/* % of a CPU others took that voids a window */

/* The command line, as the keyword table fills it. */
struct bench_args {
	const char *list;
	uint32_t rounds, duration, size, noise_pct;
	const char *plot, *save;
	uint32_t count;		/* count_words[] */
	uint32_t sink;		/* sink_words[] */
	char *dev[4];		/* dev GEN DUT_IN DUT_OUT SINK */
	uint32_t topo;		/* topo_words[] */
	uint32_t ports, stations, routes, dsts;	/* 0: not given */
};

static const char *const topo_words[TOPO_N] = {
	[TOPO_CROSS] = "cross", [TOPO_BRIDGE] = "bridge", [TOPO_ROUTER] = "router",
};

static const char *const count_words[] = { "xdp", "tc" };
static const char *const sink_words[] = { "inline", "thread" };

static int parse_plot(const struct kw *k, const char *arg, void *dst)
{
	const char *ext = strrchr(arg, '.');

	if (!ext || (strcmp(ext, ".png") && strcmp(ext, ".svg")))
		return usage_err("plot \"%s\": a FILE.png or FILE.svg", arg);
	*(const char **)dst = arg;
	return 0;
}

/* dev's first value; cmd_parse() takes the other three */
static int parse_dev(const struct kw *k, const char *arg, void *dst)
{
	*(char **)dst = (char *)arg;
	return 0;
}

static const struct kw bench_kws[] = {
	KW_STR("method", struct bench_args, list, "LIST", 0,
	       "the rows to run (with the rows they are compared with)"),
	KW_U32("rounds", struct bench_args, rounds, 1, MAX_ROUNDS, "N", 0,
	       "rounds of every row (default 5)"),
	KW_U32("duration", struct bench_args, duration, 1, 3600, "S", 0,
	       "seconds of each window (default 2)"),
	KW_U32("size", struct bench_args, size, 64, 1518, "BYTES", 0,
	       "frame size on the wire, with FCS (default 64)"),
	KW_FN("plot", struct bench_args, plot, parse_plot, "FILE.png|FILE.svg",
	      0, "plot the rates with gnuplot"),
	KW_STR("save", struct bench_args, save, "FILE.json", 0,
	       "the JSON document also goes to FILE"),
	KW_U32("noise", struct bench_args, noise_pct, 0, 100, "PCT", 0,
	       "others' CPU share that voids a window (0: keep all)"),
	KW_ENUM("count", struct bench_args, count, count_words, "counter",
		"COUNTER", 0, "count at the sink with XDP or tc"),
	KW_ENUM("sink", struct bench_args, sink, sink_words, "sink",
		"SINK_NAPI", 0, "the sink's NAPI inline or in a thread"),
	KW_FN("dev", struct bench_args, dev[0], parse_dev,
	      "GEN DUT_IN DUT_OUT SINK", 0, "four given devices"),
	KW_ENUM("topology", struct bench_args, topo, topo_words, "topology",
		"TOPOLOGY", 0, "what the dut is (default cross)"),
	KW_U32("ports", struct bench_args, ports, 3, TOPO_PORTS_MAX, "N", 0,
	       "topology bridge: its ports, gen's and N-1 sinks (default 3)"),
	KW_U32("stations", struct bench_args, stations, 1, TOPO_STATIONS_MAX,
	       "M", 0, "topology bridge: destination MACs (default 1000)"),
	KW_U32("routes", struct bench_args, routes, 1, TOPO_ROUTES_MAX, "R", 0,
	       "topology router: routes installed (default 1000)"),
	KW_U32("dsts", struct bench_args, dsts, 1, TOPO_ROUTES_MAX, "N", 0,
	       "topology router: gen's destinations, one a route (default 1)"),
	KW_END
};

#define USAGE	"Usage: bpfwd bench "

int bench_help(int argc, char **argv)
{
	printf(USAGE);
	kw_usage(stdout, bench_kws, strlen(USAGE));
	printf("       bpfwd bench list [ topology TOPOLOGY ]\n"
	       "where  LIST := { all | NAME[,NAME...] }\n");
	kw_usage_enums(stdout, bench_kws, 7);
	return BPFWD_EXIT_OK;
}

/* The table, and dev's three more values after its first. */
static int cmd_parse(struct bench_args *a, int argc, char **argv)
{
	kw_seen_t seen = 0;
	int i, err;

	for (;;) {
		err = kw_parse_some(bench_kws, &argc, &argv, a, &seen);
		if (err || !argc)
			return err;
		if (!a->dev[0] || a->dev[1])
			return usage_err("unknown argument \"%s\"", *argv);
		if (argc < 3)
			return usage_err("dev needs GEN DUT_IN DUT_OUT SINK");
		for (i = 1; i < 4; i++)
			a->dev[i] = argv[i - 1];
		argc -= 3;
		argv += 3;
	}
}

static int add_row(struct bench *b, const struct method *m)
{
	int i;

	for (i = 0; i < b->nrows; i++)
		if (b->rows[i].m == m)
			return 0;
	if (b->nrows >= MAX_METHODS)
		return -E2BIG;
	b->rows[b->nrows++].m = m;
	return 0;
}

static int parse_methods(struct bench *b, const char *list)
{
	char buf[512], *tok, *save;
	size_t i;

	if (is_word(list, "all")) {
		for (i = 0; i < bench_nmethods; i++)
			if (&bench_topos[bench_methods[i]->topo] == b->topo)
				add_row(b, bench_methods[i]);
		return 0;
	}
	/* the bridge (the topology's reference) is every row's yardstick:
	 * always measured, first
	 */
	add_row(b, method_find(b->topo->ref));
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct method *m = method_find(tok);

		if (!m)
			return usage_err("method \"%s\": unknown, try bpfwd bench list",
					 tok);
		if (&bench_topos[m->topo] != b->topo)
			return usage_err("method \"%s\": a row of topology %s, not %s",
					 tok, bench_topos[m->topo].name,
					 b->topo->name);
		/* a monitor row is compared with its off row, a tcp or
		 * rtt row with its kind's bridge row, a scale row with its
		 * row at one entry and the default flows, every row with
		 * its path's limit
		 */
		if (m->off)
			add_row(b, m->off);
		if (m->ref)
			add_row(b, m->ref);
		if (m->kind == KIND_PPS && m->of)
			add_row(b, m->of);
		add_row(b, m);
		if (method_base(m)->limit != LIMIT_NONE)
			add_row(b, method_find(bench_limit_names[method_base(m)->limit]));
	}
	return 0;
}

/* topology and its keywords: each only with its topology */
static int topo_args(struct bench *b, const struct bench_args *a)
{
	b->topo = &bench_topos[a->topo];
	if ((a->ports || a->stations) && a->topo != TOPO_BRIDGE)
		return usage_err("%s: with topology bridge only",
				 a->ports ? "ports" : "stations");
	if ((a->routes || a->dsts) && a->topo != TOPO_ROUTER)
		return usage_err("%s: with topology router only",
				 a->routes ? "routes" : "dsts");
	if (a->dev[0] && a->topo != TOPO_CROSS)
		return usage_err("dev: topology %s builds namespaces of its own",
				 b->topo->name);
	b->tp.ports = a->ports ? a->ports : 3;
	b->tp.stations = a->stations ? a->stations : 1000;
	b->tp.routes = a->routes ? a->routes : 1000;
	b->tp.dsts = a->dsts ? a->dsts : 1;
	/* one destination a route, from route R/2 up (topo_router.c) */
	if (b->tp.dsts > b->tp.routes - b->tp.routes / 2)
		return usage_err("dsts \"%u\": at most %u with %u routes (one a route, from route %u up)",
				 b->tp.dsts, b->tp.routes - b->tp.routes / 2,
				 b->tp.routes, b->tp.routes / 2);
	return 0;
}

/* The command line into @b (and the devices into @dev). */
static int bench_args(struct bench *b, int argc, char **argv, char **dev)
{
	struct bench_args a = {
		.list = "all", .rounds = 5, .duration = 2,
		.size = LIVEGEN_SIZE_DEF, .noise_pct = NOISE_PCT_DEF,
	};
	int err = cmd_parse(&a, argc, argv);

	if (err)
		return err;
	b->rounds = a.rounds;
	b->duration = a.duration;
	b->size = a.size;
	b->noise_pct = a.noise_pct;
	b->plot = a.plot;
	b->save = a.save;
	b->count_xdp = a.count == 0;
	b->sink_thread = a.sink == 1;
	memcpy(dev, a.dev, sizeof(a.dev));
	err = topo_args(b, &a);
	if (err)
		return err;
	return parse_methods(b, a.list);
}

/* gen on CPU 0, the dut on CPU 1; bench at nice -20, and its autogroup
 * too where it is on.
 */
static void bench_cpus(struct bench *b)
{
	FILE *f;

	b->gen_cpu = nr_cpus() > 1 ? 0 : -1;
	b->dut_cpu = nr_cpus() > 1 ? 1 : -1;
	b->sink_cpu = b->dut_cpu;
	if (b->gen_cpu < 0)
		pr_warn("bench: one CPU: gen and dut share it, ratios still hold, rates do not");
	setpriority(PRIO_PROCESS, 0, -20);
	f = fopen("/proc/self/autogroup", "w");
	if (f) {
		fputs("-20", f);
		fclose(f);
	}
}

/* Measures and reports; the topology is up. */
static int bench_report(struct bench *b, double load0)
{
	int i, ret = BPFWD_EXIT_OK;
	double load1;

	if (bench_run(b) == -EINTR) {
		p_err("interrupted: everything it set up is removed");
		return BPFWD_EXIT_FAIL;
	}
	load1 = loadavg1();
	print_doc(b, load0, load1);
	if (b->save && save_doc(b, load0, load1))
		ret = BPFWD_EXIT_FAIL;
	for (i = 0; i < b->nrows; i++)
		if (b->rows[i].failed[0])
			ret = BPFWD_EXIT_FAIL;
	if (b->plot && plot(b))
		ret = BPFWD_EXIT_FAIL;
	return ret;
}

/* bpfwd bench list [ topology T ] */
static int bench_list(int argc, char **argv)
{
	size_t t;

	if (!argc)
		return print_list(&bench_topos[TOPO_CROSS]);
	if (argc != 2 || !is_word(argv[0], "topology"))
		return usage_err("list: [ topology TOPOLOGY ] only");
	for (t = 0; t < TOPO_N; t++)
		if (!strcmp(argv[1], bench_topos[t].name))
			return print_list(&bench_topos[t]);
	return usage_err("unknown topology \"%s\"", argv[1]);
}

int do_bench(int argc, char **argv)
{
	static struct bench bench;
	struct bench *b = &bench;
	struct signals_saved sigs;
	struct sigaction hup, old_hup, old_pipe;
	char *devs[4];
	double load0;
	int i, err, ret = BPFWD_EXIT_FAIL;

	opts.cmd = "bench";
	if (argc > 0 && is_word(*argv, "help"))
		return bench_help(0, NULL);
	if (argc > 0 && is_word(*argv, "list"))
		return bench_list(argc - 1, argv + 1);
	memset(b, 0, sizeof(*b));
	for (i = 0; i < NS_N; i++)
		b->ns[i] = -1;
	err = bench_args(b, argc, argv, devs);
	if (err)
		return err;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	bench_cpus(b);
	/* ^C, kill, a closed terminal and a closed pipe (bench | head):
	 * everything set up comes down
	 */
	signals_catch(&sigs, false);
	sigaction(SIGINT, NULL, &hup);
	sigaction(SIGHUP, &hup, &old_hup);
	sigaction(SIGPIPE, &hup, &old_pipe);

	b->live = isatty(STDERR_FILENO);
	load0 = loadavg1();
	b->own_ns = !devs[0];
	err = b->own_ns ? topo_build(b) : topo_devices(b, devs);
	if (!err && b->topo->build)
		err = b->topo->build(b);
	if (!err)
		err = sink_counter_add(b);
	if (!err && b->topo->counted)
		err = b->topo->counted(b);
	if (err) {
		if (b->err[0])
			p_err("topology: %s", b->err);
	} else {
		ret = bench_report(b, load0);
	}
	sink_counter_del(b);
	topo_destroy(b);
	signals_restore(&sigs);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	return ret;
}
