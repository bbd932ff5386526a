// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd monitor: redirect errors as they happen, counted in BPF maps by
 * monitor.bpf.c and printed every interval as rates with device and
 * errno names, as JSON (one object per interval) and as a Prometheus
 * textfile.  Errors only by default, so that it can run forever on a busy
 * box; `all` adds the per-packet success events, `nobulk` drops the bulk
 * events (probed once per bulk even when nothing was lost).
 *
 * The kernel's tracepoints differ between versions (6.16 removed
 * xdp_redirect_map{,_err}; only a patched kernel has tc:tc_redirect_err),
 * so the monitor looks each one up in the kernel's BTF and attaches to
 * what exists instead of failing on what does not.  Nothing is pinned:
 * the programs go away with the process.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "objects.h"
#include "lib/json.h"
#include "lib/params.h"
#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "lib/mon_probes.h"

struct monitor_cfg {
	bool nokfree, nobulk;
	uint32_t interval, count;
	const char *prom;
};

/* prom FILE: a name, not an empty word */
static int kw_prom(const struct kw *k, const char *arg, void *dst)
{
	(void)k;
	if (!*arg)
		return usage_err("prom: empty file name");
	*(const char **)dst = arg;
	return 0;
}

static const struct kw monitor_kws[] = {
	KW_FLAG("nokfree", struct monitor_cfg, nokfree, 0,
		"not skb:kfree_skb, the stock kernel's tc error signal"),
	KW_FLAG("nobulk", struct monitor_cfg, nobulk, 0,
		"not the bulk tracepoints (devmap_xmit, cpumap_*)"),
	KW_INTERVAL(struct monitor_cfg, interval,
		    "seconds between reports (default 1)"),
	KW_COUNT(struct monitor_cfg, count, 100000000,
		 "reports, then exit (default: until SIGINT/SIGTERM)"),
	KW_FN("prom", struct monitor_cfg, prom, kw_prom, "FILE", 0,
	      "a Prometheus textfile, rewritten atomically each report"),
	KW_END
};

int monitor_help(int argc, char **argv)
{
	static const char usage[] = "Usage: bpfwd monitor [ all | errors ] ";

	(void)argc;
	(void)argv;
	fputs(usage, stdout);
	kw_usage(stdout, monitor_kws, sizeof(usage) - 1);
	printf("  %-22s %s\n  %-22s %s\n", "all", "successful redirects too",
	       "errors", "only errors (the default)");
	kw_help(stdout, monitor_kws);
	printf("nokfree: skb:kfree_skb runs a program for every frame the box drops\n"
	       "nobulk: a probe per bulk of frames, healthy or not; without them the\n"
	       "        monitor misses frames a target's driver refuses (a full ring),\n"
	       "        left to the driver's counters, and cpumap queue drops\n");
	return BPFWD_EXIT_OK;
}

static const char *const event_names[__BPFWD_EV_MAX] = {
	[BPFWD_EV_XDP_REDIRECT] = "xdp_redirect",
	[BPFWD_EV_XDP_REDIRECT_ERR] = "xdp_redirect_err",
	[BPFWD_EV_XDP_MAP] = "xdp_redirect_map",
	[BPFWD_EV_XDP_MAP_ERR] = "xdp_redirect_map_err",
	[BPFWD_EV_XDP_EXCEPTION] = "xdp_exception",
	[BPFWD_EV_CPUMAP_KTHREAD] = "xdp_cpumap_kthread",
	[BPFWD_EV_CPUMAP_ENQUEUE] = "xdp_cpumap_enqueue",
	[BPFWD_EV_DEVMAP_XMIT] = "xdp_devmap_xmit",
	[BPFWD_EV_TC_REDIRECT] = "tc_redirect",
	[BPFWD_EV_TC_REDIRECT_ERR] = "tc_redirect_err",
};

static const char *const xdp_actions[] = {
	"ABORTED", "DROP", "PASS", "TX", "REDIRECT",
};


/* Names of one key, as text, JSON and Prometheus labels show them. */
struct names {
	char dev[IF_NAMESIZE + 8];
	char target[IF_NAMESIZE + 24];
	char kind[8];
	char action[24];
	char err[24];
};

static bool is_tc(const struct bpfwd_mon_key *k)
{
	return k->event == BPFWD_EV_TC_REDIRECT ||
	       k->event == BPFWD_EV_TC_REDIRECT_ERR;
}

/* The target bpfwd's port table gives @ifindex, 0 when not a port. */
static uint32_t port_target(uint32_t ifindex)
{
	uint64_t me = netns_cookie();
	struct bpfwd_port p;
	struct table t;
	uint32_t to = 0;
	int s;

	for (s = 0; s < 2 && !to; s++) {
		if (table_open_read(&t, s))
			continue;
		if (!port_get(&t, ifindex, &p) && (!t.stock || p.netns == me))
			to = p.target;
		table_close(&t);
	}
	return to;
}

/* The ifindex in slot @index of devmap @map_id, 0 if none (or not a
 * devmap).
 */
static uint32_t devmap_target(uint32_t map_id, uint32_t index)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info), val[2] = { 0 }, to = 0;
	int fd = bpf_map_get_fd_by_id(map_id);

	if (fd < 0)
		return 0;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
	    (info.type == BPF_MAP_TYPE_DEVMAP ||
	     info.type == BPF_MAP_TYPE_DEVMAP_HASH) &&
	    info.key_size == sizeof(index) && info.value_size <= sizeof(val) &&
	    !bpf_map_lookup_elem(fd, &index, val))
		to = val[0];
	close(fd);
	return to;
}

/* The key as shown: a tc redirect to a missing ifindex, seen where the
 * skb was freed, gets its target from the port's entry in the table; an
 * XDP redirect through a devmap, the ifindex in the devmap's slot.
 */
static struct bpfwd_mon_key display_key(const struct bpfwd_mon_key *k)
{
	struct bpfwd_mon_key d = *k;
	uint32_t to = 0;

	if (k->kind == BPFWD_TGT_INDEX && k->map_id)
		to = devmap_target(k->map_id, k->target);
	if (to) {
		d.kind = BPFWD_TGT_DEV;
		d.target = to;
		return d;
	}
	if ((k->flags & BPFWD_MON_F_KFREE) && k->kind == BPFWD_TGT_NONE &&
	    k->ifindex) {
		d.target = port_target(k->ifindex);
		if (d.target)
			d.kind = BPFWD_TGT_DEV;
	}
	return d;
}

static void names_of(const struct bpfwd_mon_key *k, struct names *n)
{
	char buf[IF_NAMESIZE];
	const char *e;

	if (k->ifindex)
		snprintf(n->dev, sizeof(n->dev), "%s",
			 ifname_of(k->ifindex, buf));
	else
		snprintf(n->dev, sizeof(n->dev), "-");
	switch (k->kind) {
	case BPFWD_TGT_DEV:
		snprintf(n->kind, sizeof(n->kind), "dev");
		snprintf(n->target, sizeof(n->target), "%s",
			 ifname_of(k->target, buf));
		break;
	case BPFWD_TGT_CPU:
		snprintf(n->kind, sizeof(n->kind), "cpu");
		snprintf(n->target, sizeof(n->target), "cpu%u", k->target);
		break;
	case BPFWD_TGT_INDEX:
		snprintf(n->kind, sizeof(n->kind), "index");
		snprintf(n->target, sizeof(n->target), "map%u[%u]", k->map_id,
			 k->target);
		break;
	default:
		snprintf(n->kind, sizeof(n->kind), "none");
		snprintf(n->target, sizeof(n->target), "-");
	}
	if (is_tc(k)) {
		const char *base = k->action & BPFWD_TC_F_NEIGH ? "neigh" :
				   k->action & BPFWD_TC_F_PEER ? "peer" :
				   k->action & BPFWD_TC_F_CLONE ? "clone" :
								  "redirect";

		snprintf(n->action, sizeof(n->action), "%s%s", base,
			 k->action & BPFWD_TC_F_INGRESS ? "_ingress" : "");
	} else if (k->action < ARRAY_SIZE(xdp_actions)) {
		snprintf(n->action, sizeof(n->action), "%s",
			 xdp_actions[k->action]);
	} else {
		snprintf(n->action, sizeof(n->action), "action%u", k->action);
	}
	e = k->err < 0 ? strerrorname_np(-k->err) : NULL;
	if (!k->err)
		snprintf(n->err, sizeof(n->err), "-");
	else if (e)
		snprintf(n->err, sizeof(n->err), "%s", e);
	else
		snprintf(n->err, sizeof(n->err), "err%d", k->err);
}

/* SKB_DROP_REASON_QDISC_DROP -> "QDISC_DROP", from the kernel's BTF */
static const char *drop_reason(const struct btf *btf, uint32_t reason)
{
	static char buf[24];
	const struct btf_type *t;
	const struct btf_enum *e;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, "skb_drop_reason",
					  BTF_KIND_ENUM) : -1;
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	for (i = 0; t && i < btf_vlen(t); i++) {
		const char *name;

		e = btf_enum(t) + i;
		if ((uint32_t)e->val != reason)
			continue;
		name = btf__name_by_offset(btf, e->name_off);
		if (!strncmp(name, "SKB_DROP_REASON_", 16))
			name += 16;
		return name;
	}
	snprintf(buf, sizeof(buf), "%u", reason);
	return buf;
}

/* One event row: names and ifindexes, rates over @secs since @p (the
 * key's entry in the previous read, NULL if new) and the counts.
 */
static void print_event(struct mon *st, const struct mon_entry *e,
			const struct mon_entry *p, double secs)
{
	uint64_t dp = e->v.packets - (p ? p->v.packets : 0);
	uint64_t de = e->v.events - (p ? p->v.events : 0);
	struct bpfwd_mon_key k = display_key(&e->k);
	struct names n;

	names_of(&k, &n);
	open_json_object(NULL);
	print_string(PRINT_ANY, "event", "  %-20s",
		     e->k.event < __BPFWD_EV_MAX ?
		     event_names[e->k.event] : "?");
	print_string(PRINT_JSON, "source", NULL,
		     e->k.flags & BPFWD_MON_F_KFREE ? "kfree_skb" :
						     "tracepoint");
	print_string(PRINT_ANY, "dev", " %-15s", n.dev);
	print_u64(PRINT_JSON, "ifindex", NULL, e->k.ifindex);
	print_string(PRINT_ANY, "target", " %-15s", n.target);
	print_string(PRINT_JSON, "target_kind", NULL, n.kind);
	print_u64(PRINT_JSON, "target_index", NULL, k.target);
	if (k.kind == BPFWD_TGT_DEV)
		print_u64(PRINT_JSON, "target_ifindex", NULL, k.target);
	else
		print_null(PRINT_JSON, "target_ifindex", NULL);
	if (!(e->k.flags & BPFWD_MON_F_KFREE))
		print_u64(PRINT_JSON, "map_id", NULL, e->k.map_id);
	print_string(PRINT_ANY, "action", " %-16s", n.action);
	if (e->k.err)
		print_string(PRINT_ANY, "errno", " %-10s", n.err);
	else
		print_null(PRINT_JSON, "errno", NULL);
	if (!e->k.err)
		print_string(PRINT_FP, NULL, " %-10s", n.err);
	print_double(PRINT_JSON, "err", NULL, e->k.err);
	print_bool(PRINT_JSON, "derived", NULL,
		   e->k.flags & BPFWD_MON_F_DERIVED);
	if (e->k.flags & BPFWD_MON_F_KFREE)
		print_string(PRINT_JSON, "drop_reason", NULL,
			     drop_reason(st->btf, e->k.map_id));
	print_double(PRINT_ANY, "packets_per_sec", " %12.0f",
		     secs > 0 ? dp / secs : 0);
	print_double(PRINT_JSON, "events_per_sec", NULL,
		     secs > 0 ? de / secs : 0);
	print_u64(PRINT_ANY, "packets", " %14llu", e->v.packets);
	print_u64(PRINT_ANY, "events", " %8llu", e->v.events);
	print_u64(PRINT_JSON, "processed", NULL, e->v.processed);
	print_nl();
	close_json_object();
}

static void print_interval(struct mon *st, const struct mon_snapshot *cur,
			   const struct mon_snapshot *prev, double secs)
{
	char stamp[32];
	struct tm tm;
	time_t t = time(NULL);
	int i, shown = 0;
	size_t j;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	json_begin();
	open_json_object(NULL);
	print_u64(PRINT_JSON, "time", NULL, (uint64_t)t);
	print_string(PRINT_FP, NULL, "%s", stamp);
	print_double(PRINT_ANY, "interval", "  interval %.2fs", secs);
	print_string(PRINT_ANY, "mode", "  %s", st->all ? "all" : "errors");
	print_u64(PRINT_JSON, "lost", NULL, cur->lost);
	if (cur->lost)
		print_u64(PRINT_FP, NULL, "  (%llu events lost: table full)",
			  cur->lost);
	print_nl();
	open_json_array("signals");
	for (j = 0; j < mon_nsignals(); j++)
		if (st->attached[j])
			print_string(PRINT_JSON, NULL, NULL, mon_signal(j));
	close_json_array();
	open_json_array("events");
	for (i = 0; i < cur->n; i++) {
		const struct mon_entry *e = &cur->e[i];

		if (!shown++)
			print_string(PRINT_FP, NULL, "%s\n",
				     "  EVENT                DEV             TARGET          ACTION           ERRNO         PKT/S        PACKETS   EVENTS");
		print_event(st, e, mon_find(prev, &e->k), secs);
	}
	close_json_array();
	if (!shown)
		print_string(PRINT_FP, NULL, "  %s\n",
			     st->all ? "no events" : "no errors");
	close_json_object();
	json_end();
	if (!opts.json)
		putchar('\n');
	fflush(stdout);
}

static void prom_label(FILE *f, const char *key, const char *v, bool last)
{
	fprintf(f, "%s=\"", key);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*v, f);
	}
	fprintf(f, "\"%s", last ? "" : ",");
}

static void prom_metric(FILE *f, const char *name, const struct mon_entry *e,
			uint64_t v)
{
	struct bpfwd_mon_key k = display_key(&e->k);
	struct names n;
	char map[16];

	names_of(&k, &n);
	snprintf(map, sizeof(map), "%u", e->k.map_id);
	fprintf(f, "%s{", name);
	prom_label(f, "event", event_names[e->k.event], false);
	prom_label(f, "dev", n.dev, false);
	prom_label(f, "target", n.target, false);
	prom_label(f, "action", n.action, false);
	prom_label(f, "errno", e->k.err ? n.err : "", false);
	prom_label(f, "map_id", e->k.map_id &&
		   !(e->k.flags & BPFWD_MON_F_KFREE) ? map : "", true);
	fprintf(f, "} %llu\n", (unsigned long long)v);
}

static void prom_series(FILE *f, const struct mon_snapshot *s, const char *name,
			const char *help, bool events)
{
	int i;

	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
	for (i = 0; i < s->n; i++)
		if (s->e[i].k.event < __BPFWD_EV_MAX)
			prom_metric(f, name, &s->e[i], events ?
				    s->e[i].v.events : s->e[i].v.packets);
}

/* A new file next to @path, @path.tmp.XXXXXX, made by mkstemp(): a
 * name nobody can guess, created with O_EXCL, so a link planted in the
 * directory (the collector's, perhaps writable by another user) is
 * never followed.  Readable by all, as a textfile must be for the
 * collector.  Returns the stream, or NULL with errno set.
 */
static FILE *prom_create(const char *path, char *tmp, size_t size)
{
	FILE *f;
	int fd;

	if ((size_t)snprintf(tmp, size, "%s.tmp.XXXXXX", path) >= size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f || fchmod(fd, 0644)) {
		int err = errno;

		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
		errno = err;
		return NULL;
	}
	return f;
}

static void prom_body(FILE *f, struct mon *st, const struct mon_snapshot *s)
{
	size_t j;

	prom_series(f, s, "bpfwd_monitor_packets_total",
		    "Frames of redirect events since the monitor started (drops for bulk events)",
		    false);
	prom_series(f, s, "bpfwd_monitor_events_total",
		    "Times a redirect event fired since the monitor started",
		    true);
	fputs("# HELP bpfwd_monitor_lost_total Events not counted because the monitor's table was full\n"
	      "# TYPE bpfwd_monitor_lost_total counter\n", f);
	fprintf(f, "bpfwd_monitor_lost_total %llu\n",
		(unsigned long long)s->lost);
	fputs("# HELP bpfwd_monitor_signal Kernel signals the monitor is attached to\n"
	      "# TYPE bpfwd_monitor_signal gauge\n", f);
	for (j = 0; j < mon_nsignals(); j++)
		if (st->attached[j]) {
			fputs("bpfwd_monitor_signal{", f);
			prom_label(f, "signal", mon_signal(j), true);
			fputs("} 1\n", f);
		}
}

/* Writes a new file, then renames it over @path: a reader (the
 * node_exporter textfile collector) never sees half a file.
 */
static int prom_write(struct mon *st, const char *path,
		      const struct mon_snapshot *s)
{
	char tmp[4096];
	FILE *f;
	int err = 0;

	f = prom_create(path, tmp, sizeof(tmp));
	if (!f) {
		err = -errno;
		p_err("prom %s: %s", path, strerror(-err));
		return err;
	}
	prom_body(f, st, s);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		p_err("prom %s: %s", path, strerror(-err));
		unlink(tmp);
	}
	return err;
}

/* Checked before anything is attached: a bad path fails up front. */
static int prom_check(const char *path)
{
	char tmp[4096];
	FILE *f = prom_create(path, tmp, sizeof(tmp));

	if (!f) {
		p_err("prom %s: %s", path, strerror(errno));
		return -errno;
	}
	fclose(f);
	unlink(tmp);
	return 0;
}

/* Parses the arguments into @st and the report's settings.  all and
 * errors set one mode, the last one given wins ("all errors" is
 * errors, the default); the other words come from the table.
 */
static int monitor_parse(int argc, char **argv, struct mon *st,
			 struct monitor_cfg *c)
{
	kw_seen_t seen = 0;
	int err;

	c->interval = 1;
	for (;;) {
		err = kw_parse_some(monitor_kws, &argc, &argv, c, &seen);
		if (err)
			return err;
		if (!argc)
			break;
		if (!is_word(*argv, "all") && !is_word(*argv, "errors"))
			return usage_err("unknown argument \"%s\"", *argv);
		st->all = is_word(*argv, "all");
		argc--;
		argv++;
	}
	st->no_kfree = c->nokfree;
	st->no_bulk = c->nobulk;
	return 0;
}

int do_monitor(int argc, char **argv)
{
	struct mon st = { 0 };
	struct monitor_cfg c = { 0 };
	struct mon_snapshot snap[2] = { 0 };
	struct signals_saved sigs;
	const char *prom;
	uint32_t done;
	int cur = 0, ret = BPFWD_EXIT_OK;
	double t0, t1;

	opts.cmd = "monitor";
	if (argc > 0 && is_word(*argv, "help"))
		return monitor_help(0, NULL);
	ret = monitor_parse(argc, argv, &st, &c);
	if (ret)
		return ret;
	prom = c.prom;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	if (prom && prom_check(prom))
		return BPFWD_EXIT_FAIL;
	if (mon_start(&st))
		return BPFWD_EXIT_FAIL;
	if (!opts.json) {
		size_t j;

		printf("monitoring %s:", st.all ? "all redirects" : "redirect errors");
		for (j = 0; j < mon_nsignals(); j++)
			if (st.attached[j])
				printf(" %s", mon_signal(j));
		printf("\n");
		fflush(stdout);
	}
	signals_catch(&sigs, false);
	t0 = now();
	for (done = 0; !stop_signal && (!c.count || done < c.count); done++) {
		struct timespec ts = { .tv_sec = c.interval };

		while (!stop_signal && nanosleep(&ts, &ts) && errno == EINTR)
			;
		cur ^= 1;
		free(snap[cur].e);
		memset(&snap[cur], 0, sizeof(snap[cur]));
		if (mon_read(&st, &snap[cur])) {
			p_err("read counters: %s", strerror(ENOMEM));
			ret = BPFWD_EXIT_FAIL;
			break;
		}
		t1 = now();
		print_interval(&st, &snap[cur], &snap[cur ^ 1], t1 - t0);
		t0 = t1;
		if (prom && prom_write(&st, prom, &snap[cur])) {
			ret = BPFWD_EXIT_FAIL;
			break;
		}
	}
	signals_restore(&sigs);
	free(snap[0].e);
	free(snap[1].e);
	mon_stop(&st);
	return ret;
}
