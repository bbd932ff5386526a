// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The monitor's machinery, apart from its printing: which of
 * monitor.bpf.c's programs the running kernel can take (looked up in its
 * BTF), loading and attaching them, and reading their per-CPU counters.
 * `bpfwd monitor` prints what it reads; `bpfwd bench` can run the same
 * monitor in-process around a measurement (mon_start/mon_stop).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "mon_probes.h"
#include "pins.h"
#include "util.h"
#include "monitor.skel.h"

/* What each program listens to, and when it is wanted: ALWAYS, with
 * `all` only, unless `nobulk` (a probe per bulk of frames, healthy or
 * not), or on a stock kernel unless `nokfree`.
 */
enum sig_when { ALWAYS, ALL_ONLY, BULK, TC_STOCK };

struct signal_def {
	const char *prog;	/* program name in monitor.bpf.c */
	const char *btf;	/* what must exist in the kernel's BTF */
	const char *label;	/* as reported */
	enum sig_when when;
};

static const struct signal_def signals[] = {
	{ "mon_xdp_rd", "btf_trace_xdp_redirect", "xdp:xdp_redirect", ALL_ONLY },
	{ "mon_xdp_rd_err", "btf_trace_xdp_redirect_err", "xdp:xdp_redirect_err", ALWAYS },
	{ "mon_xdp_map", "btf_trace_xdp_redirect_map", "xdp:xdp_redirect_map", ALL_ONLY },
	{ "mon_xdp_map_err", "btf_trace_xdp_redirect_map_err", "xdp:xdp_redirect_map_err", ALWAYS },
	{ "mon_xdp_exc", "btf_trace_xdp_exception", "xdp:xdp_exception", ALWAYS },
	{ "mon_cpu_kthr", "btf_trace_xdp_cpumap_kthread", "xdp:xdp_cpumap_kthread", BULK },
	{ "mon_cpu_enq", "btf_trace_xdp_cpumap_enqueue", "xdp:xdp_cpumap_enqueue", BULK },
	{ "mon_devmap_xmit", "btf_trace_xdp_devmap_xmit", "xdp:xdp_devmap_xmit", BULK },
	{ "mon_tc_rd_err", "btf_trace_tc_redirect_err", "tc:tc_redirect_err", ALWAYS },
	{ "mon_tc_rd", "btf_trace_tc_redirect", "tc:tc_redirect", ALL_ONLY },
	{ "mon_kfree_skb", "btf_trace_kfree_skb", "skb:kfree_skb", TC_STOCK },
};

_Static_assert(ARRAY_SIZE(signals) == MON_SIGNALS, "MON_SIGNALS");

size_t mon_nsignals(void)
{
	return ARRAY_SIZE(signals);
}

const char *mon_signal(size_t i)
{
	return i < ARRAY_SIZE(signals) ? signals[i].label : NULL;
}

bool mon_has_tracepoint(const struct btf *btf, const char *event)
{
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

/* Which programs this kernel can take: the tracepoints by their
 * btf_trace_* typedefs, fentry/fexit by the function.
 */
static int plan(struct mon *st, bool *want)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool tc_tp, kfree = false;
	size_t i;

	if (!btf) {
		p_err("needs kernel BTF (/sys/kernel/btf/vmlinux): %s",
		      strerror(errno));
		return -errno;
	}
	tc_tp = btf__find_by_name_kind(btf, "btf_trace_tc_redirect_err",
				       BTF_KIND_TYPEDEF) > 0;
	for (i = 0; i < ARRAY_SIZE(signals); i++) {
		const struct signal_def *s = &signals[i];
		const char *skip = NULL;
		bool have;

		have = btf__find_by_name_kind(btf, s->btf,
					      BTF_KIND_TYPEDEF) > 0;
		if (s->when == TC_STOCK)
			have = have && !tc_tp;
		if (s->when == ALL_ONLY && !st->all)
			skip = "skipped (not all)";
		else if (s->when == BULK && st->no_bulk)
			skip = "skipped (nobulk)";
		else if (s->when == TC_STOCK && st->no_kfree)
			skip = "skipped (nokfree)";
		want[i] = have && !skip;
		if (s->when == TC_STOCK)
			kfree |= want[i];
		pr_info("monitor: %s %s", s->label,
			!have ? "absent" : skip ? skip : "attach");
	}
	st->btf = btf;
	if (!tc_tp && !kfree && !st->no_kfree)
		pr_warn("monitor: no signal for tc redirect errors on this kernel (no tc:tc_redirect_err, no skb:kfree_skb)");
	return 0;
}

static int addr_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The text of skb_do_redirect() (and its .cold part) from /proc/kallsyms:
 * from its address to the next symbol's.
 */
static int redirect_ranges(struct monitor *skel)
{
	static const char *const names[] = {
		"skb_do_redirect", "skb_do_redirect.cold",
	};
	uint64_t want[ARRAY_SIZE(names)] = { 0 }, *addrs = NULL, a;
	size_t n = 0, cap = 0, i, r = 0;
	char line[512], name[256], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) != 3 ||
		    (type != 't' && type != 'T') || !a)
			continue;
		if (n == cap) {
			uint64_t *p = realloc(addrs, (cap = cap ? 2 * cap : 65536) *
						      sizeof(*addrs));

			if (!p) {
				fclose(f);
				free(addrs);
				return -ENOMEM;
			}
			addrs = p;
		}
		addrs[n++] = a;
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(name, names[i]))
				want[i] = a;
	}
	fclose(f);
	qsort(addrs, n, sizeof(*addrs), addr_cmp);
	for (i = 0; i < ARRAY_SIZE(names) && r < ARRAY_SIZE(skel->rodata->rd_lo); i++) {
		uint64_t *hit;

		if (!want[i])
			continue;
		hit = bsearch(&want[i], addrs, n, sizeof(*addrs), addr_cmp);
		while (hit && hit + 1 < addrs + n && hit[1] == want[i])
			hit++;
		if (!hit || hit + 1 >= addrs + n)
			continue;
		skel->rodata->rd_lo[r] = want[i];
		skel->rodata->rd_hi[r] = hit[1];
		r++;
	}
	free(addrs);
	return r ? 0 : -ENOENT;
}

static int start(struct mon *st)
{
	bool want[ARRAY_SIZE(signals)];
	struct bpf_program *prog;
	size_t i;
	int err;

	err = plan(st, want);
	if (err)
		return err;
	st->skel = monitor__open();
	if (!st->skel) {
		err = -errno;
		p_err("open monitor.o: %s", strerror(-err));
		return err;
	}
	st->skel->rodata->netns_cookie = st->any_netns ? 0 : netns_cookie();
	st->skel->rodata->count_all = st->all;
	if (want[ARRAY_SIZE(signals) - 1] && redirect_ranges(st->skel))
		pr_warn("monitor: skb_do_redirect not in /proc/kallsyms: tc redirects to a missing ifindex go uncounted");
	for (i = 0; i < ARRAY_SIZE(signals); i++) {
		prog = bpf_object__find_program_by_name(st->skel->obj,
							signals[i].prog);
		if (!prog) {
			p_err("monitor.o has no program %s", signals[i].prog);
			return -ENOENT;
		}
		bpf_program__set_autoload(prog, want[i]);
	}
	err = monitor__load(st->skel);
	if (err) {
		p_err("load monitor.o: %s (bpfwd -vv shows the verifier log)",
		      strerror(-err));
		return err;
	}
	for (i = 0; i < ARRAY_SIZE(signals); i++) {
		struct bpf_link *link;

		if (!want[i])
			continue;
		prog = bpf_object__find_program_by_name(st->skel->obj,
							signals[i].prog);
		link = bpf_program__attach(prog);
		if (!link) {
			err = -errno;
			p_err("attach %s: %s", signals[i].label, strerror(-err));
			return err;
		}
		st->links[i] = link;
		st->attached[i] = true;
	}
	return 0;
}

static int key_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct mon_entry *)a)->k,
		      &((const struct mon_entry *)b)->k, sizeof(struct bpfwd_mon_key));
}

int mon_read(struct mon *st, struct mon_snapshot *s)
{
	int fd = bpf_map__fd(st->skel->maps.bpfwd_mon);
	struct bpfwd_mon_key key, next, *prev = NULL;
	__u32 zero = 0;
	int c, n = 0;

	s->e = calloc(BPFWD_MON_KEYS, sizeof(*s->e));
	if (!s->e)
		return -ENOMEM;
	while (n < BPFWD_MON_KEYS && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, st->percpu))
			continue;	/* deleted meanwhile: not by us */
		s->e[n].k = key;
		for (c = 0; c < st->ncpus; c++) {
			s->e[n].v.events += st->percpu[c].events;
			s->e[n].v.packets += st->percpu[c].packets;
			s->e[n].v.processed += st->percpu[c].processed;
		}
		n++;
	}
	s->n = n;
	qsort(s->e, n, sizeof(*s->e), key_cmp);
	s->lost = 0;
	fd = bpf_map__fd(st->skel->maps.bpfwd_mon_lost);
	if (!bpf_map_lookup_elem(fd, &zero, st->percpu))
		for (c = 0; c < st->ncpus; c++)
			s->lost += st->percpu[c].events;
	return 0;
}

const struct mon_entry *mon_find(const struct mon_snapshot *s,
					 const struct bpfwd_mon_key *k)
{
	struct mon_entry e = { .k = *k };

	if (!s->e)
		return NULL;
	return bsearch(&e, s->e, s->n, sizeof(e), key_cmp);
}

void mon_stop(struct mon *st)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(st->links); i++) {
		bpf_link__destroy(st->links[i]);
		st->links[i] = NULL;
	}
	monitor__destroy(st->skel);
	st->skel = NULL;
	btf__free(st->btf);
	st->btf = NULL;
	free(st->percpu);
	st->percpu = NULL;
}

int mon_start(struct mon *m)
{
	int err;

	m->ncpus = libbpf_num_possible_cpus();
	if (m->ncpus <= 0) {
		err = m->ncpus ? m->ncpus : -EINVAL;
		p_err("cannot count possible CPUs: %s", strerror(-err));
		return err;
	}
	m->percpu = calloc(m->ncpus, sizeof(*m->percpu));
	if (!m->percpu) {
		p_err("%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = start(m);
	if (err)
		mon_stop(m);
	return err;
}
