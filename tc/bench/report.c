// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench's report: the tables (text, or with -j one JSON document,
 * both from the same print calls), the list of methods and the JSON
 * document saved to a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "bench.h"
#include "lib/json.h"
#include "lib/nsrun.h"
#include "lib/ports.h"
#include "lib/util.h"

static void print_num(const char *key, const char *fmt, double v)
{
	if (isnan(v)) {
		print_null(PRINT_JSON, key, NULL);
		print_string(PRINT_FP, NULL, "%8s", "-");
		return;
	}
	print_double(PRINT_ANY, key, fmt, v);
}

/* Targets of issue 5 (reported, not asserted): errors only costs under
 * 3%, all at most 150 ns per packet.
 */
#define MON_ERRORS_MAX_COST	0.03
#define MON_ALL_MAX_NS		150

/* Met only when every round meets the target, not met when none does;
 * otherwise the rounds straddle it and the median alone would claim
 * more than this machine measured.
 */
static const char *mon_verdict(bool median, bool worst, bool best)
{
	if (worst)
		return "met";
	if (!best)
		return "not met";
	return median ? "unresolved (met at the median, not in every round)" :
			"unresolved (not met at the median, met in some rounds)";
}

/* One round of a monitor row against its off row. */
static void print_mon_round(struct bench *b, struct row *r, uint32_t k)
{
	struct row *off = r->m->off ? row_named(b, r->m->off->name) : NULL;
	double v;

	if (!off)
		return;
	if (vs_round(&r->s[k], &off->s[k], VS_RATIO, &v))
		print_double(PRINT_JSON, "ratio_to_off", NULL, v);
	if (vs_round(&r->s[k], &off->s[k], VS_NS, &v))
		print_double(PRINT_JSON, "ns_added", NULL, v);
	if (vs_round(&r->s[k], &off->s[k], VS_GEN, &v))
		print_double(PRINT_JSON, "gen_ratio_to_off", NULL, v);
	if (vs_round(&r->s[k], &off->s[k], VS_CPU_NS, &v))
		print_double(PRINT_JSON, "dut_cpu_ns_added", NULL, v);
}

/* A monitor row against its off row of the same rounds, on a line of
 * its own under the row.  The verdict goes by the dut's CPU time per
 * packet where there is one (threaded NAPI): rates on a shared 2-CPU
 * machine move by more than the 3% the target is about; else by rates.
 */
static void print_mon_cost(struct bench *b, struct row *r)
{
	const struct method *m = r->m->off;
	bool all = r->m->mon == MON_ALL;
	struct row *off = row_named(b, m->name);
	struct stat3 ra = row_vs(b, r, off, VS_RATIO);
	struct stat3 ns = row_vs(b, r, off, VS_NS);
	struct stat3 gen = row_vs(b, r, off, VS_GEN);
	struct stat3 cns = row_vs(b, r, off, VS_CPU_NS);
	struct stat3 cost = row_vs(b, r, off, VS_CPU_COST);
	bool cpu = cns.n > 0;
	double hi = MON_ERRORS_MAX_COST, lo = 1 - hi;
	bool med, worst, best;

	if (cpu) {
		med = all ? cns.med <= MON_ALL_MAX_NS : cost.med < hi;
		worst = all ? cns.max <= MON_ALL_MAX_NS : cost.max < hi;
		best = all ? cns.min <= MON_ALL_MAX_NS : cost.min < hi;
	} else {
		med = all ? ns.med <= MON_ALL_MAX_NS : ra.med > lo;
		worst = all ? ns.max <= MON_ALL_MAX_NS : ra.min > lo;
		best = all ? ns.min <= MON_ALL_MAX_NS : ra.max > lo;
	}
	print_nl();
	print_string(PRINT_ANY, "monitor", "    monitor %-6s",
		     bench_mon_names[r->m->mon]);
	print_string(PRINT_ANY, "off_row", " x %s", m->name);
	print_num("ratio_to_off", " %.3f", ra.med);
	print_num("ratio_to_off_min", " (%.3f", ra.min);
	print_num("ratio_to_off_max", " %.3f),", ra.max);
	print_num("ns_added_per_packet", " %+.1f ns/pkt", ns.med);
	print_num("ns_added_min", " (%+.1f", ns.min);
	print_num("ns_added_max", " %+.1f);", ns.max);
	/* the monitor sees gen's own redirects too: a slower gen changes
	 * the load the dut gets, so say how much slower it was
	 */
	print_num("gen_ratio_to_off", " gen x %.2f;", gen.med);
	print_nl();
	print_string(PRINT_FP, NULL, "%s", "      dut CPU");
	print_num("dut_cpu_ns_added", " %+.1f ns/pkt", cns.med);
	print_num("dut_cpu_ns_added_min", " (%+.1f", cns.min);
	print_num("dut_cpu_ns_added_max", " %+.1f)", cns.max);
	if (cpu)
		print_string(PRINT_FP, NULL, "%s", " =");
	print_num("dut_cpu_cost", " %+.1f%%", cost.med * 100);
	print_num("dut_cpu_cost_min", " (%+.1f%%", cost.min * 100);
	print_num("dut_cpu_cost_max", " %+.1f%%);", cost.max * 100);
	print_string(PRINT_ANY, "target", " target %s", all ?
		     "<= 150 ns/pkt added" : "< 3% cost");
	print_string(PRINT_ANY, "target_measure", " (by %s)",
		     cpu ? "dut CPU time" : "rate");
	print_string(PRINT_ANY, "target_verdict", ": %s",
		     isnan(cpu ? cns.med : ns.med) ? "no data" :
		     mon_verdict(med, worst, best));
}

static const char *row_status(struct row *r)
{
	if (r->skipped)
		return "skipped";
	return r->failed[0] ? "failed" : "ok";
}

/* A tcp or rtt row's round, JSON only. */
static void print_round_other(struct row *r, struct sample *s)
{
	if (r->m->kind == KIND_TCP) {
		print_double(PRINT_JSON, "gbps", NULL, s->mpps);
		print_double(PRINT_JSON, "retransmits", NULL, s->retrans);
		return;
	}
	print_double(PRINT_JSON, "rtt_us_min", NULL, s->rtt_min);
	print_double(PRINT_JSON, "rtt_us_median", NULL, s->mpps);
	print_double(PRINT_JSON, "rtt_us_p99", NULL, s->rtt_p99);
	print_double(PRINT_JSON, "loss_pct", NULL, s->loss_pct);
	if (r->m->kind == KIND_RTT_LOAD) {
		print_double(PRINT_JSON, "load_mpps", NULL, s->load_mpps);
		print_double(PRINT_JSON, "gen_mpps", NULL, s->gen_mpps);
	}
}

/* The rounds of a row, JSON only. */
static void print_rounds(struct bench *b, struct row *r, struct row *bridge)
{
	bool loop = method_base(r->m)->loop;
	uint32_t k;

	open_json_array("rounds");
	for (k = 0; k < b->rounds; k++) {
		struct sample *s = &r->s[k];

		if (!s->done)
			continue;
		open_json_object(NULL);
		print_u64(PRINT_JSON, "round", NULL, k + 1);
		if (r->m->kind == KIND_PPS)
			print_double(PRINT_JSON, "mpps", NULL, s->mpps);
		else
			print_round_other(r, s);
		if (!loop && bridge && bridge->s[k].done && bridge->s[k].mpps > 0)
			print_double(PRINT_JSON, "ratio_to_bridge", NULL,
				     s->mpps / bridge->s[k].mpps);
		if (r->m->kind != KIND_PPS) {
			close_json_object();
			continue;
		}
		print_mon_round(b, r, k);
		print_double(PRINT_JSON, "gen_mpps", NULL, s->gen_mpps);
		if (!isnan(s->dut_ns))
			print_double(PRINT_JSON, "dut_cpu_ns", NULL, s->dut_ns);
		print_double(PRINT_JSON, "others_cpu_pct", NULL, s->others);
		print_bool(PRINT_JSON, "noisy", NULL, s->noisy);
		print_bool(PRINT_JSON, "bpf_stats", NULL, s->bpf_stats);
		close_json_object();
	}
	close_json_array();
}

/* The numbers of a row that ran. */
static void print_row_numbers(struct bench *b, struct row *r,
			      struct row *bridge)
{
	const struct method *base = method_base(r->m);
	const char *limit = bench_limit_names[base->limit];
	struct row *lim = row_named(b, limit);
	struct stat3 mp, ra, lm, cpu, lcpu;
	int disc = 0;

	mp = row_samples(b, r, false, &disc);
	cpu = row_samples(b, r, true, NULL);
	/* an xdp-loop row has no dut: no ratio to the bridge */
	ra = base->loop ? (struct stat3){ NAN, NAN, NAN, 0 } :
			  row_vs(b, r, bridge, VS_RATIO);
	/* per round, as the ratio to the bridge: a limit row's rate moves
	 * as much as any other's
	 */
	lm = row_vs(b, r, lim, VS_RATIO);
	lcpu = row_vs(b, r, lim, VS_CPU_RATIO);
	print_string(PRINT_JSON, "reason", NULL, r->failed[0] ? r->failed : NULL);
	print_num("mpps_median", " %6.3f", mp.med);
	print_num("mpps_min", "  (%5.3f", mp.min);
	print_num("mpps_max", " %6.3f)", mp.max);
	print_num("ratio_to_bridge", "  %6.2f", ra.med);
	print_num("ratio_min", "   (%4.2f", ra.min);
	print_num("ratio_max", "  %4.2f)", ra.max);
	print_num("ns_per_packet", " %6.0f", 1e3 / mp.med);
	print_num("dut_cpu_ns_per_packet", "  %6.0f", cpu.med);
	print_string(PRINT_JSON, "limit", NULL, limit);
	print_num("ratio_to_limit", "  %6.2f", lm.med);
	/* the same by the dut's CPU time: its own work only */
	if (!isnan(lcpu.med))
		print_num("dut_cpu_ratio_to_limit", " (%4.2f)", lcpu.med);
	print_u64(PRINT_JSON, "rounds_used", NULL, mp.n);
	print_u64(PRINT_JSON, "noisy_rounds_discarded", NULL, disc);
}

/* A tcp row's numbers: Gbit/s received, the per-round ratio to
 * tcp-bridge, retransmits (medians over the rounds).
 */
static void print_tcp_numbers(struct bench *b, struct row *r, struct row *ref)
{
	struct stat3 g = row_samples(b, r, false, NULL);
	struct stat3 ra = row_vs(b, r, ref, VS_RATIO);
	struct stat3 rt = row_field(b, r, offsetof(struct sample, retrans));

	print_string(PRINT_JSON, "reason", NULL, r->failed[0] ? r->failed : NULL);
	print_num("gbps_median", " %6.2f", g.med);
	print_num("gbps_min", "  (%5.2f", g.min);
	print_num("gbps_max", " %6.2f)", g.max);
	print_string(PRINT_JSON, "ratio_to", NULL, r->m->ref->name);
	print_num("ratio_to_bridge", "  %6.2f", ra.med);
	print_num("ratio_min", "     (%4.2f", ra.min);
	print_num("ratio_max", "  %4.2f)", ra.max);
	print_num("retransmits_median", " %11.0f", rt.med);
	print_u64(PRINT_JSON, "rounds_used", NULL, g.n);
}

/* An rtt row's numbers: the lowest round trip of all rounds, the
 * medians of the rounds' medians, p99s and losses, the per-round ratio
 * of the median to the bridge's (lower is better), and under load the
 * rate forwarded meanwhile.
 */
static void print_rtt_numbers(struct bench *b, struct row *r, struct row *ref)
{
	struct stat3 med = row_samples(b, r, false, NULL);
	struct stat3 ra = row_vs(b, r, ref, VS_RATIO);
	struct stat3 lo = row_field(b, r, offsetof(struct sample, rtt_min));
	struct stat3 p99 = row_field(b, r, offsetof(struct sample, rtt_p99));
	struct stat3 loss = row_field(b, r, offsetof(struct sample, loss_pct));
	struct stat3 load = row_field(b, r, offsetof(struct sample, load_mpps));

	print_string(PRINT_JSON, "reason", NULL, r->failed[0] ? r->failed : NULL);
	print_num("rtt_us_min", " %7.0f", lo.min);
	print_num("rtt_us_median", " %7.0f", med.med);
	print_num("rtt_us_p99", " %7.0f", p99.med);
	print_num("loss_pct", " %6.1f%%", loss.med);
	print_string(PRINT_JSON, "ratio_to", NULL, r->m->ref->name);
	print_num("ratio_to_bridge", "  %6.2f", ra.med);
	print_num("ratio_min", "     (%4.2f", ra.min);
	print_num("ratio_max", "  %4.2f)", ra.max);
	if (r->m->kind == KIND_RTT_LOAD)
		print_num("load_mpps_median", "  %6.3f", load.med);
	print_u64(PRINT_JSON, "rounds_used", NULL, med.n);
}

static const char *const titles[KIND_N] = {
	[KIND_TCP] = "TCP, iperf3 gen -> sink, one stream\n",
	[KIND_RTT] = "round trips, ping gen -> sink 500/s, gen idle, the dut's NAPI not threaded (us)\n",
	[KIND_RTT_LOAD] = "round trips, ping gen -> sink 500/s, gen sending, NAPI as in the pps rows (us)\n",
};

/* the columns after the name; KIND_PPS's has the topology's reference */
static const char *const columns[KIND_N] = {
	[KIND_TCP] = "status   Gbit/s (min    max)  x tcp-bridge (min  max) retransmits\n",
	[KIND_RTT] = "status     min  median     p99   lost  x rtt-bridge (min  max)\n",
	[KIND_RTT_LOAD] = "status     min  median     p99   lost  x rtt-bridge-load     Mpps fwd\n",
};

/* The name column: 20 wide, or the longest name of the run's rows. */
static int name_width(struct bench *b)
{
	int w = 20, i;

	for (i = 0; i < b->nrows; i++)
		if ((int)strlen(b->rows[i].m->name) > w)
			w = strlen(b->rows[i].m->name);
	return w;
}

static void print_header(struct bench *b, unsigned int kind)
{
	char name[64];

	snprintf(name, sizeof(name), "%-*s ", name_width(b), "method");
	if (titles[kind])
		print_string(PRINT_FP, NULL, "%s", titles[kind]);
	print_string(PRINT_FP, NULL, "%s", name);
	if (kind != KIND_PPS) {
		print_string(PRINT_FP, NULL, "%s", columns[kind]);
		return;
	}
	print_string(PRINT_FP, NULL, "status    Mpps   (min    max)   x %-6s",
		     b->topo->ref_short);
	print_string(PRINT_FP, NULL, "%s",
		     " (min   max)  ns/pkt  cpu ns  of limit (cpu)\n");
}

static void print_row(struct bench *b, struct row *r)
{
	struct row *ref = row_ref(b, r);

	char fmt[16];

	snprintf(fmt, sizeof(fmt), "%%-%ds", name_width(b));
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", fmt, r->m->name);
	print_string(PRINT_ANY, "status", " %-8s", row_status(r));
	print_string(PRINT_JSON, "kind", NULL, bench_kind_names[r->m->kind]);
	print_string(PRINT_JSON, "description", NULL, r->m->desc);
	if (r->skipped || (r->failed[0] && !row_samples(b, r, false, NULL).n)) {
		print_string(PRINT_ANY, "reason", " %s",
			     r->skipped ? r->skipped : r->failed);
		print_nl();
		close_json_object();
		return;
	}
	if (r->m->kind == KIND_TCP)
		print_tcp_numbers(b, r, ref);
	else if (r->m->kind != KIND_PPS)
		print_rtt_numbers(b, r, ref);
	else
		print_row_numbers(b, r, ref);
	if (r->failed[0])
		print_string(PRINT_FP, NULL, "  (%s)", r->failed);
	if (r->m->mon != MON_OFF)
		print_mon_cost(b, r);
	print_rounds(b, r, ref);
	print_nl();
	close_json_object();
}

/* One table per kind (one "methods" array in JSON, each row with its
 * kind).
 */
static void print_rows(struct bench *b)
{
	unsigned int k;
	int i, n;

	open_json_array("methods");
	for (k = 0; k < KIND_N; k++) {
		for (i = n = 0; i < b->nrows; i++) {
			if (b->rows[i].m->kind != k)
				continue;
			if (!n++ && k)
				print_nl();
			if (n == 1)
				print_header(b, k);
			print_row(b, &b->rows[i]);
		}
	}
	close_json_array();
}

static void print_noise(struct bench *b, double load0, double load1)
{
	static double gen[MAX_METHODS * MAX_ROUNDS], pr[MAX_METHODS * MAX_ROUNDS];
	int n = 0, noisy = 0, stats = 0, i;
	struct stat3 g, p;
	uint32_t k;

	for (i = 0; i < b->nrows; i++)
		for (k = 0; k < b->rounds; k++)
			if (b->rows[i].m->kind == KIND_PPS && b->rows[i].s[k].done) {
				gen[n] = b->rows[i].s[k].gen_mpps;
				pr[n++] = b->rows[i].s[k].others;
				noisy += b->rows[i].s[k].noisy;
				stats += b->rows[i].s[k].bpf_stats;
			}
	g = stats_of(gen, n);
	p = stats_of(pr, n);
	open_json_object("gen");
	print_string(PRINT_FP, NULL, "%s", "gen offered:");
	print_num("mpps_median", " %.2f Mpps", g.med);
	print_num("mpps_min", " (%.2f", g.min);
	print_num("mpps_max", "-%.2f)", g.max);
	print_u64(PRINT_ANY, "size", " of %llu-byte frames", b->size);
	print_nl();
	close_json_object();
	open_json_object("noise");
	print_string(PRINT_FP, NULL, "%s", "noise: other tasks took");
	print_num("others_cpu_median_pct", " %.0f%%", p.med);
	print_num("others_cpu_max_pct", " (max %.0f%%) of a CPU,", p.max);
	print_u64(PRINT_ANY, "noisy_windows", " %llu", noisy);
	print_u64(PRINT_ANY, "windows", " of %llu windows", n);
	print_u64(PRINT_ANY, "threshold_pct", " above %llu%%", b->noise_pct);
	if (stats)
		print_u64(PRINT_FP, NULL, " or with BPF stats on (%llu)", stats);
	print_u64(PRINT_JSON, "bpf_stats_windows", NULL, stats);
	print_bool(PRINT_JSON, "all_noisy", NULL, n && noisy == n);
	print_string(PRINT_FP, NULL, "%s", noisy == n && n ?
		     (stats && stats < n ?
		      " (none clean: medians use all without BPF stats);" :
		      " (none clean: medians use them all);") :
		     " (left out of the medians);");
	print_double(PRINT_ANY, "loadavg_start", " load %.2f", load0);
	print_double(PRINT_ANY, "loadavg_end", " -> %.2f", load1);
	print_nl();
	close_json_object();
}

static void print_machine(void)
{
	struct utsname u;
	char model[128] = "";
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			char *c = strchr(line, ':');

			snprintf(model, sizeof(model), "%s", c ? c + 2 : line);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	uname(&u);
	open_json_object("machine");
	print_string(PRINT_ANY, "kernel", "kernel %s,", u.release);
	print_u64(PRINT_ANY, "cpus", " %llu CPUs", nr_cpus());
	print_string(PRINT_ANY, "cpu_model", " (%s)", model);
	print_nl();
	close_json_object();
}

/* The topology keyword's: what the dut is, and the row every ratio is
 * to (JSON ratio_to_bridge is to it).
 */
static void print_topo(struct bench *b)
{
	const struct topology *t = b->topo;

	print_string(PRINT_ANY, "dut", ", dut %s", t->name);
	if (t == &bench_topos[TOPO_BRIDGE]) {
		print_u64(PRINT_ANY, "ports", " of %llu ports", b->tp.ports);
		print_u64(PRINT_ANY, "stations", ", %llu stations", b->tp.stations);
	} else if (t == &bench_topos[TOPO_ROUTER]) {
		print_u64(PRINT_ANY, "routes", " with %llu routes", b->tp.routes);
		print_u64(PRINT_JSON, "dsts", NULL, b->tp.dsts);
		if (b->tp.dsts > 1)
			print_u64(PRINT_FP, NULL, ", gen to %llu destinations",
				  b->tp.dsts);
	}
	print_string(PRINT_ANY, "reference", ", rows x %s", t->ref);
}

static void print_setup(struct bench *b)
{
	int i;

	print_machine();
	open_json_object("setup");
	print_u64(PRINT_ANY, "rounds", "%llu rounds", b->rounds);
	print_u64(PRINT_ANY, "duration_s", " of %llu s per method", b->duration);
	print_u64(PRINT_ANY, "size", ", %llu-byte frames", b->size);
	print_string(PRINT_ANY, "topology", ", %s", b->own_ns ?
		     "namespaces gen|dut|sink, one-queue veths" : "given devices");
	print_topo(b);
	if (b->gen_cpu >= 0)
		print_u64(PRINT_ANY, "gen_cpu", ", gen on CPU%llu", b->gen_cpu);
	if (b->napi_threaded)
		print_u64(PRINT_ANY, "dut_cpu", ", dut on CPU%llu", b->dut_cpu);
	print_bool(PRINT_ANY, "napi_threaded", ", threaded NAPI: %s",
		   b->napi_threaded);
	if (b->own_ns)
		print_string(PRINT_ANY, "sink_napi", ", sink NAPI: %s",
			     b->sink_thread ? "thread" : "inline");
	open_json_array("namespaces");
	for (i = 0; b->own_ns && i < NS_N; i++)
		print_string(PRINT_JSON, NULL, NULL, b->ns_name[i]);
	close_json_array();
	print_nl();
	print_string(PRINT_ANY, "counted_at", "counted: %s\n", b->count_xdp ?
		     "sink port XDP counter (count+XDP_DROP) for forwarding rows; the drop program's counter for the drop rows" :
		     "sink port tc ingress BPF counter (count+consume) for forwarding rows; the drop program's counter for the drop rows");
	print_string(PRINT_JSON, "known_bias", NULL,
		     "skbs freed on the dut's CPU return pages to the generator's page pool on the other CPU; this costs skb paths more than XDP paths");
	close_json_object();
}

void print_doc(struct bench *b, double load0, double load1)
{
	json_begin();
	open_json_object(NULL);
	print_setup(b);
	print_rows(b);
	print_noise(b, load0, load1);
	close_json_object();
	json_end();
}

/* save FILE: the JSON document into FILE, whatever stdout shows */
int save_doc(struct bench *b, double load0, double load1)
{
	bool json = opts.json, pretty = opts.pretty;
	int fd, out, err = 0;

	fd = open(b->save, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		p_err("save %s: %s", b->save, strerror(errno));
		return -errno;
	}
	fflush(stdout);
	out = dup(STDOUT_FILENO);
	if (out < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		err = -errno;
		p_err("save %s: %s", b->save, strerror(-err));
		close(fd);
		if (out >= 0)
			close(out);
		return err;
	}
	opts.json = opts.pretty = true;
	print_doc(b, load0, load1);
	fflush(stdout);
	opts.json = json;
	opts.pretty = pretty;
	dup2(out, STDOUT_FILENO);
	close(out);
	close(fd);
	return 0;
}

int print_list(const struct topology *t)
{
	char fmt[16];
	size_t i, w = 20;

	for (i = 0; i < bench_nmethods; i++)
		if (&bench_topos[bench_methods[i]->topo] == t &&
		    strlen(bench_methods[i]->name) > w)
			w = strlen(bench_methods[i]->name);
	snprintf(fmt, sizeof(fmt), "%%-%zus", w);

	json_begin();
	open_json_array(NULL);
	for (i = 0; i < bench_nmethods; i++) {
		if (&bench_topos[bench_methods[i]->topo] != t)
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", fmt, bench_methods[i]->name);
		print_string(PRINT_ANY, "description", " %s",
			     bench_methods[i]->desc);
		print_nl();
		close_json_object();
	}
	close_json_array();
	json_end();
	return BPFWD_EXIT_OK;
}
