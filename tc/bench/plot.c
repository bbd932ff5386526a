// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench's plots (gnuplot), one per table that has rows: plot
 * FILE.png is the pps table, FILE-tcp.png, FILE-rtt.png and
 * FILE-scale.png the others (Mpps and the dut's CPU ns per frame
 * against the ports table's entries and gen's flows).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "lib/livegen.h"
#include "lib/nsrun.h"
#include "lib/util.h"

enum plot_kind { PL_PPS, PL_TCP, PL_RTT, PL_SCALE, PL_N };
static const char *const suffix[PL_N] = { "", "-tcp", "-rtt", "-scale" };

static bool in_plot(const struct row *r, enum plot_kind k)
{
	const struct method *m = r->m;

	switch (k) {
	case PL_PPS:
		return m->kind == KIND_PPS;
	case PL_TCP:
		return m->kind == KIND_TCP;
	case PL_RTT:
		return m->kind == KIND_RTT || m->kind == KIND_RTT_LOAD;
	default:
		return m->entries || m->flows;
	}
}

/* Bars: one line per row, median, low, high and the label. */
static void bars_data(struct bench *b, FILE *f, enum plot_kind k)
{
	int i;

	for (i = 0; i < b->nrows; i++) {
		struct row *r = &b->rows[i];
		struct stat3 mp = row_samples(b, r, false, NULL);
		struct stat3 ra = row_vs(b, r, row_ref(b, r), VS_RATIO);
		double lo = mp.min, hi = mp.max;

		if (!in_plot(r, k))
			continue;
		if (k == PL_RTT) {
			lo = row_field(b, r, offsetof(struct sample, rtt_min)).min;
			hi = row_field(b, r, offsetof(struct sample, rtt_p99)).med;
		}
		if (r->skipped || !mp.n)
			fprintf(f, "\"%s (skipped)\" 0 0 0 \"\"\n", r->m->name);
		else if (method_base(r->m)->loop || isnan(ra.med))
			fprintf(f, "\"%s\" %f %f %f \"\"\n", r->m->name, mp.med,
				lo, hi);
		else
			fprintf(f, "\"%s\" %f %f %f \"%.2fx\"\n", r->m->name,
				mp.med, lo, hi, ra.med);
	}
}

struct point {
	uint32_t x;
	double mpps, ns;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

/* One path's points (its row at 1 entry and the default flows, and its
 * scale rows) against entries (@flows false) or flows, sorted by x.
 */
static void scale_series(struct bench *b, FILE *f, bool flows,
			 const struct method *of)
{
	struct point pt[MAX_METHODS];
	int i, n = 0;

	for (i = 0; i < b->nrows; i++) {
		struct row *r = &b->rows[i];
		uint32_t x = flows ? r->m->flows : r->m->entries;

		if (r->m == of)
			x = flows ? LIVEGEN_FLOWS_DEF : 1;
		else if (r->m->of != of)
			x = 0;
		if (!x || !row_samples(b, r, false, NULL).n)
			continue;
		pt[n].x = x;
		pt[n].mpps = row_samples(b, r, false, NULL).med;
		pt[n++].ns = row_samples(b, r, true, NULL).med;
	}
	qsort(pt, n, sizeof(*pt), cmp_point);
	fprintf(f, "\"%s\"\n", of->name);
	for (i = 0; i < n; i++)
		fprintf(f, "%u %f %f\n", pt[i].x, pt[i].mpps, pt[i].ns);
	fprintf(f, "\n\n");
}

/* The scale rows' paths (their .of), each once; blocks "entries" of
 * them, then "flows": gnuplot's index 0..n-1 and n..2n-1.
 */
static int scale_data(struct bench *b, FILE *f)
{
	const struct method *of[8];
	int i, j, n = 0, fl;

	for (i = 0; i < b->nrows && n < 8; i++) {
		const struct method *o = b->rows[i].m->of;

		if (!in_plot(&b->rows[i], PL_SCALE))
			continue;
		for (j = 0; j < n && of[j] != o; j++)
			;
		if (j == n)
			of[n++] = o;
	}
	for (fl = 0; fl < 2; fl++)
		for (j = 0; j < n; j++)
			scale_series(b, f, fl, of[j]);
	return n;
}

static const char *const titles[PL_N] = {
	"Mpps reaching the sink\\nbars: median, whiskers: min-max, labels: median per-round ratio to the Linux bridge",
	"TCP Gbit/s received (iperf3, one stream)\\nbars: median, whiskers: min-max, labels: median per-round ratio to tcp-bridge",
	"round trip (ping, 500/s), us\\nbars: median, whiskers: min to p99, labels: median per-round ratio to the bridge's",
	"scale: Mpps (left axis) and dut CPU ns per frame (right axis)",
};
static const char *const ylabels[PL_N] = { "Mpps", "Gbit/s", "us", "Mpps" };

static void bars_script(struct bench *b, FILE *g, enum plot_kind k,
			const char *dat)
{
	fprintf(g,
		"set style data histogram\n"
		"set style histogram errorbars gap 1 lw 1\n"
		"set style fill solid 0.6 border -1\n"
		"set boxwidth 0.8\n"
		"set ylabel '%s'\n"
		"%s\n"
		"set offsets 0, 0, graph 0.1, 0\n"
		"set xtics rotate by -30 font ',9'\n"
		"set grid ytics\n"
		"unset key\n"
		"plot '%s' using 2:3:4:xtic(1) lc rgb '#4477aa', "
		"'' using 0:4:5 with labels offset 0,1 font ',9'\n",
		ylabels[k],
		/* round trips span 10 us to ms: a log scale */
		k == PL_RTT ? "set logscale y\nset yrange [1:*]" : "set yrange [0:*]",
		dat);
}

static void scale_script(FILE *g, const char *dat, int n)
{
	int x, j;

	fprintf(g, "set logscale x\nset grid\nset key top left font ',9'\n"
		"set ylabel 'Mpps'\nset y2label 'dut CPU ns/frame'\n"
		"set yrange [0:*]\nset y2range [0:*]\nset y2tics\n");
	for (x = 0; x < 2; x++) {
		fprintf(g, "set xlabel '%s'\nset xrange [0.7:%s]\nplot ",
			x ? "gen flows" : "entries in the ports table",
			x ? "30000" : "200000");
		for (j = 0; j < n; j++)
			fprintf(g, "%s'%s' index %d using 1:2 with linespoints title columnhead(1).' Mpps', "
				"'' index %d using 1:3 axes x1y2 with linespoints dt 2 title columnhead(1).' cpu ns'",
				j ? ", " : "", dat, x * n + j, x * n + j);
		fprintf(g, "\n");
	}
	fprintf(g, "unset multiplot\n");
}

/* The plot file of @k: b->plot with suffix[k] before its extension. */
static void plot_name(struct bench *b, enum plot_kind k, char *buf, size_t len)
{
	const char *ext = strrchr(b->plot, '.');

	snprintf(buf, len, "%.*s%s%s", (int)(ext - b->plot), b->plot,
		 suffix[k], ext);
}

static int plot_one(struct bench *b, enum plot_kind k)
{
	char dat[] = "/tmp/bpfwd-bench-XXXXXX", gp[] = "/tmp/bpfwd-plot-XXXXXX";
	char *argv[] = { "gnuplot", gp, NULL }, out[PATH_MAX], err[ERRLEN];
	const char *ext = strrchr(b->plot, '.');
	int fd, gfd, ret, n = 0;
	FILE *f, *g;

	plot_name(b, k, out, sizeof(out));
	fd = mkstemp(dat);
	gfd = fd < 0 ? -1 : mkstemp(gp);
	if (fd < 0 || gfd < 0) {
		ret = -errno;
		if (fd >= 0) {
			close(fd);
			unlink(dat);
		}
		return ret;
	}
	f = fdopen(fd, "w");
	g = fdopen(gfd, "w");
	if (k == PL_SCALE)
		n = scale_data(b, f);
	else
		bars_data(b, f, k);
	fprintf(g, "set terminal %s size %d,560\nset output '%s'\n"
		"%s \"bpfwd bench: %s\\n%u rounds x %u s, %u-byte frames\"\n",
		ext && !strcmp(ext, ".svg") ? "svg" : "pngcairo",
		k == PL_SCALE ? 1200 : 1000, out,
		k == PL_SCALE ? "set multiplot layout 1,2 title" : "set title",
		titles[k], b->rounds, b->duration, b->size);
	if (k == PL_SCALE)
		scale_script(g, dat, n);
	else
		bars_script(b, g, k, dat);
	fclose(f);
	fclose(g);
	ret = ns_exec(-1, argv, err, sizeof(err));
	unlink(dat);
	unlink(gp);
	if (ret) {
		p_err("plot %s: gnuplot: %s", out, err[0] ? err : "failed");
		return -EIO;
	}
	return 0;
}

int plot(struct bench *b)
{
	int k, i, err = 0;

	for (k = 0; k < PL_N; k++) {
		for (i = 0; i < b->nrows && !in_plot(&b->rows[i], k); i++)
			;
		if (i < b->nrows && plot_one(b, k))
			err = -EIO;
	}
	return err;
}
