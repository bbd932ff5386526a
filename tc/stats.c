// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd stats: the per-port, per-CPU counters of the programs (and the
 * cpumap figures of XDP cpumap ports).  Once, or every S seconds as
 * rates (count N times).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"
#include "objects.h"
#include "route.h"
#include "lib/json.h"
#include "lib/netdev.h"
#include "lib/params.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "hook.h"

struct stats_cfg {
	const char *dev;
	uint32_t interval;	/* 0: once, as counts */
	uint32_t count;		/* 0: until killed */
	bool percpu;
};

static const struct kw stats_kws[] = {
	KW_DEV("dev", struct stats_cfg, dev, "IN", 0, "only this port"),
	KW_INTERVAL(struct stats_cfg, interval,
		    "rates every S seconds instead of counts once"),
	KW_COUNT(struct stats_cfg, count, 1000000,
		 "with interval: N reports, then exit"),
	KW_FLAG("percpu", struct stats_cfg, percpu, 0,
		"the counters of each CPU too"),
	KW_END
};

/* The counters of a fast path of its own (route, bridge): `stats
 * route [ dev DEV ]` prints them, a JSON array of one object per device.
 */
struct path_stats_cfg {
	const char *dev;
};

static const struct kw route_stats_kws[] = {
	KW_DEV("dev", struct path_stats_cfg, dev, "DEV", 0,
	       "only this device of the routing fast path"),
	KW_END
};

int stats_help(int argc, char **argv)
{
	static const char usage[] = "Usage: bpfwd stats [ show ] ";
	static const char route[] = "       bpfwd stats route ";

	(void)argc;
	(void)argv;
	fputs(usage, stdout);
	kw_usage(stdout, stats_kws, sizeof(usage) - 1);
	fputs(route, stdout);
	kw_usage(stdout, route_stats_kws, sizeof(route) - 1);
	puts("       bpfwd stats bridge [ BR ]");
	return BPFWD_EXIT_OK;
}

/* stats bridge [ BR ]: the bridge fast path's counters, as bridge stats
 * prints them (BR is a bridge's name, as in every bridge command).
 */
static int bridge_stats(int argc, char **argv)
{
	const char *br = argc > 0 ? argv[0] : NULL;
	int err;

	opts.cmd = "stats bridge";
	if (argc > 1)
		return usage_err("unknown argument \"%s\"", argv[1]);
	if (br && ifindex_of(br, NULL) < 0)
		return BPFWD_EXIT_FAIL;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	json_begin();
	err = bridge_stats_show(br, NULL);
	json_end();
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

static int route_stats(int argc, char **argv)
{
	struct path_stats_cfg c = { 0 };
	int only = 0, n, err;

	opts.cmd = "stats route";
	err = kw_parse(route_stats_kws, argc, argv, &c, NULL);
	if (err)
		return err;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	if (c.dev) {
		only = ifindex_of(c.dev, NULL);
		if (only < 0)
			return BPFWD_EXIT_FAIL;
	}
	json_begin();
	open_json_array(NULL);
	n = route_stats_show(only);
	close_json_array();
	json_end();
	if (n < 0)
		return BPFWD_EXIT_FAIL;
	if (c.dev && !n) {
		p_err("%s: not on the routing fast path", c.dev);
		return BPFWD_EXIT_FAIL;
	}
	return BPFWD_EXIT_OK;
}

struct row {
	uint32_t ifindex;	/* 0: unmatched frames */
	uint32_t target;	/* 0: none */
	enum port_target_state state;
	struct bpfwd_stats s;
	struct bpfwd_stats *cpu;
	struct hook_stats *cpumap;		/* of an XDP cpumap port */
	bool stock;
};

#define NFIELDS 8
static const char *const field_names[NFIELDS] = {
	"packets", "bytes", "dropped", "err_clone", "err_redirect",
	"no_target", "runt", "vlan",
};

static uint64_t field(const struct bpfwd_stats *s, int i)
{
	const uint64_t *v = (const uint64_t *)s;

	return v[i];
}

struct collect_ctx {
	uint32_t only;		/* an ifindex, or 0 for every port */
	struct row *rows;
	int n, max;
	bool percpu;
};

/* Adds the row of @slot of table @t (@p: the port, NULL for the
 * unmatched row); a slot that cannot be read gets none.
 */
static void add_row(struct collect_ctx *c, struct table *t, uint32_t ifindex,
		    uint32_t slot, const struct bpfwd_port *p)
{
	struct row *row;

	if (c->n >= c->max)
		return;
	row = &c->rows[c->n];
	row->ifindex = ifindex;
	row->stock = t->stock;
	row->target = p ? p->target : 0;
	row->state = port_target_state(row->target);
	row->cpu = c->percpu ? calloc(nr_cpus(), sizeof(struct bpfwd_stats)) :
			       NULL;
	if (stats_read(t, slot, &row->s, row->cpu)) {
		free(row->cpu);
		return;
	}
	row->cpumap = p ? hook_stats_read(t, p) : NULL;
	c->n++;
}

/* A table's first row, its unmatched frames ("passed").  The shared
 * stock table's is everybody's: only without a dev filter.
 */
static int passed_row(struct table *t, void *data)
{
	struct collect_ctx *c = data;

	if (!c->only)
		add_row(c, t, 0, BPFWD_SLOT_UNMATCHED, NULL);
	return 0;
}

static int port_row(struct table *t, uint32_t ifindex,
		    const struct bpfwd_port *p, void *data)
{
	struct collect_ctx *c = data;

	if (!c->only || ifindex == c->only)
		add_row(c, t, ifindex, p->slot, p);
	return 0;
}

/* Collects the rows of both tables this namespace owns. */
static int collect(uint32_t only, struct row *rows, int max, bool percpu)
{
	struct collect_ctx c = {
		.only = only, .rows = rows, .max = max, .percpu = percpu,
	};
	int err = ports_walk_tables(passed_row, port_row, &c, false);

	return err ? err : c.n;
}

/* Text: a table, one column per counter (rates with /s); JSON: the
 * counts under the counters' names, rates under NAME_per_sec.
 */
static void print_header(bool rate)
{
	int i;

	if (opts.json)
		return;
	printf("%-15s", "DEV");
	for (i = 0; i < NFIELDS; i++) {
		char h[24];

		snprintf(h, sizeof(h), "%s%s", field_names[i], rate ? "/s" : "");
		printf(" %12s", h);
	}
	printf("  %-15s %s\n", "TO", "STATE");
}

static void print_fields(const struct bpfwd_stats *s,
			 const struct bpfwd_stats *prev, double secs)
{
	char key[32];
	int i;

	for (i = 0; i < NFIELDS; i++) {
		uint64_t v = field(s, i);

		if (!prev) {
			print_u64(PRINT_ANY, field_names[i], " %12llu", v);
			continue;
		}
		snprintf(key, sizeof(key), "%s_per_sec", field_names[i]);
		print_double(PRINT_ANY, key, " %12.0f",
			     counter_rate(v, field(prev, i), secs));
	}
}

/* A device by name under @key and ifindex under @ikey, text in @fmt.
 * @ifindex 0: nulls (text: @none); a device the kernel no longer
 * knows: a null name (text: ifN) and its old ifindex.
 */
static void print_dev(const char *key, const char *ikey, const char *fmt,
		      uint32_t ifindex, const char *none)
{
	char name[IF_NAMESIZE];

	if (ifindex && if_indextoname(ifindex, name)) {
		print_string(PRINT_ANY, key, fmt, name);
	} else {
		print_null(PRINT_JSON, key, NULL);
		print_string(PRINT_FP, NULL, fmt,
			     ifindex ? ifname_of(ifindex, name) : none);
	}
	if (ifindex)
		print_u64(PRINT_JSON, ikey, NULL, ifindex);
	else
		print_null(PRINT_JSON, ikey, NULL);
}

/* The row's device and table. */
static void print_row_dev(const struct row *r)
{
	print_dev("dev", "ifindex", "%-15s", r->ifindex,
		  r->stock ? "(passed,tc)" : "(passed)");
	print_string(PRINT_JSON, "table", NULL, r->stock ? "stock" : "netns");
}

/* The row's target and its state, after the counters in text. */
static void print_row_target(const struct row *r)
{
	print_dev("to", "to_ifindex", "  %-15s", r->target, "-");
	if (r->state == TS_NONE)
		print_null(PRINT_JSON, "to_state", NULL);
	else
		print_string(PRINT_JSON, "to_state", NULL,
			     port_target_state_names[r->state]);
	print_string(PRINT_FP, NULL, " %s", port_target_state_names[r->state]);
}

/* percpu: counts of the CPUs that counted, or rates of those whose
 * counters moved (with @pc, the earlier read).
 */
static void print_cpus(const struct bpfwd_stats *cpu,
		       const struct bpfwd_stats *pc, double secs)
{
	char label[24];
	int c;

	open_json_array("cpus");
	for (c = 0; c < nr_cpus(); c++) {
		const struct bpfwd_stats *s = &cpu[c];

		if (pc ? !memcmp(s, &pc[c], sizeof(*s)) :
			 !s->packets && !s->dropped)
			continue;
		open_json_object(NULL);
		snprintf(label, sizeof(label), "  cpu%d", c);
		print_string(PRINT_FP, NULL, "\n%-15s", label);
		print_u64(PRINT_JSON, "cpu", NULL, c);
		print_fields(s, pc ? &pc[c] : NULL, secs);
		close_json_object();
	}
	close_json_array();
}

/* The earlier read of @r among @prev, NULL if it had none. */
static const struct row *prev_row(const struct row *r, const struct row *prev,
				  int pn)
{
	const struct row *found = NULL;
	int j;

	for (j = 0; prev && j < pn; j++)
		if (prev[j].ifindex == r->ifindex && prev[j].stock == r->stock)
			found = &prev[j];
	return found;
}

/* Text only: where the frames of a port whose target is not up went. */
static void print_target_notes(const struct row *rows, int n)
{
	char in[IF_NAMESIZE], to[IF_NAMESIZE];
	int i;

	for (i = 0; !opts.json && i < n; i++) {
		if (rows[i].state == TS_NONE || rows[i].state == TS_UP)
			continue;
		printf("%s: target %s %s: frames counted for it are not delivered (bpfwd monitor counts the failures)\n",
		       ifname_of(rows[i].ifindex, in),
		       ifname_of(rows[i].target, to),
		       port_target_state_names[rows[i].state]);
	}
}

static void print_rows(struct row *rows, int n, struct row *prev, int pn,
		       double secs, bool percpu)
{
	int i;

	print_header(prev);
	for (i = 0; i < n; i++) {
		const struct row *p = prev_row(&rows[i], prev, pn);

		if (prev && !p)
			continue;
		open_json_object(NULL);
		print_row_dev(&rows[i]);
		print_fields(&rows[i].s, p ? &p->s : NULL, secs);
		print_row_target(&rows[i]);
		/* rates only when both reads have them */
		if (rows[i].cpumap && (!prev || p->cpumap))
			hook_stats_print(rows[i].cpumap, p ? p->cpumap : NULL,
					secs);
		/* per CPU: counts, or rates when both reads have them */
		if (percpu && rows[i].cpu && (!prev || p->cpu))
			print_cpus(rows[i].cpu, p ? p->cpu : NULL, secs);
		print_nl();
		close_json_object();
	}
	print_target_notes(rows, n);
}

static void free_rows(struct row *rows, int n)
{
	while (n-- > 0) {
		free(rows[n].cpu);
		hook_stats_free(rows[n].cpumap);
	}
}

int do_stats(int argc, char **argv)
{
	static struct row rows[2][BPFWD_MAX_PORTS + 2];
	struct stats_cfg c = { 0 };
	uint32_t interval, count, done;
	const char *dev;
	bool percpu;
	int only = 0, n[2] = { 0 }, cur = 0, err;
	double t0, t1;

	opts.cmd = "stats";
	if (argc > 0 && (is_word(*argv, "show") || is_word(*argv, "list"))) {
		argc--;
		argv++;
	}
	if (argc > 0 && is_word(*argv, "help"))
		return stats_help(0, NULL);
	if (argc > 0 && is_word(*argv, "route"))
		return route_stats(argc - 1, argv + 1);
	if (argc > 0 && is_word(*argv, "bridge"))
		return bridge_stats(argc - 1, argv + 1);
	err = kw_parse(stats_kws, argc, argv, &c, NULL);
	if (err)
		return err;
	dev = c.dev;
	interval = c.interval;
	count = c.count;
	percpu = c.percpu;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	if (dev) {
		only = ifindex_of(dev, NULL);
		if (only < 0)
			return BPFWD_EXIT_FAIL;
	}
	n[cur] = collect(only, rows[cur], BPFWD_MAX_PORTS + 2, percpu);
	if (n[cur] < 0)
		return BPFWD_EXIT_FAIL;
	if (dev && !n[cur]) {
		p_err("%s: not a port", dev);
		return BPFWD_EXIT_FAIL;
	}
	if (!interval) {
		json_begin();
		open_json_array(NULL);
		print_rows(rows[cur], n[cur], NULL, 0, 0, percpu);
		close_json_array();
		json_end();
		free_rows(rows[cur], n[cur]);
		return BPFWD_EXIT_OK;
	}
	/* rates: one table (or JSON document) per interval */
	t0 = now();
	for (done = 0; !count || done < count; done++) {
		sleep(interval);
		cur ^= 1;
		free_rows(rows[cur], n[cur]);
		n[cur] = collect(only, rows[cur], BPFWD_MAX_PORTS + 2, percpu);
		if (n[cur] < 0)
			return BPFWD_EXIT_FAIL;
		t1 = now();
		/* -j: one object per interval, {"seconds": S, "rates": [..]} */
		json_begin();
		open_json_object(NULL);
		print_double(PRINT_JSON, "seconds", NULL, t1 - t0);
		open_json_array("rates");
		print_rows(rows[cur], n[cur], rows[cur ^ 1], n[cur ^ 1],
			   t1 - t0, percpu);
		close_json_array();
		close_json_object();
		json_end();
		if (!opts.json)
			putchar('\n');
		fflush(stdout);
		t0 = t1;
	}
	err = 0;
	free_rows(rows[0], n[0]);
	free_rows(rows[1], n[1]);
	return err;
}
