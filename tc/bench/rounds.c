// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench's statistics: medians and spreads over the rounds of a
 * row, and of per-round comparisons of two rows.  Noisy windows are
 * left out when there are clean ones, and windows with BPF statistics
 * on whenever there are others.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stat3 stats_of(double *v, int n)
{
	struct stat3 s = { NAN, NAN, NAN, n };

	if (!n)
		return s;
	qsort(v, n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

/* How far a window is from clean: 0 clean, 1 noisy (other load), 2
 * with BPF statistics on, whose CPU time is not the row's at all.
 */
static int tier_of(const struct sample *s)
{
	return s->bpf_stats ? 2 : s->noisy;
}

/* The stats of the values @v whose tier @t is the lowest there is, with
 * those of tier 1 joining tier 0's when there is no clean one: the
 * clean windows, else all but those with BPF statistics on, else all.
 */
static struct stat3 stats_tiered(double *v, const int *t, int n)
{
	int max, i, k;

	for (max = 0; max < 2; max++) {
		for (i = 0; i < n && t[i] > max; i++)
			;
		if (i < n)
			break;
	}
	for (i = 0, k = 0; i < n; i++)
		if (t[i] <= max)
			v[k++] = v[i];
	return stats_of(v, k);
}

struct row *row_named(struct bench *b, const char *name)
{
	int i;

	for (i = 0; name && i < b->nrows; i++)
		if (!strcmp(b->rows[i].m->name, name))
			return &b->rows[i];
	return NULL;
}

struct row *row_ref(struct bench *b, struct row *r)
{
	return row_named(b, r->m->ref ? r->m->ref->name : b->topo->ref);
}

/* Samples of a row (clean ones when there are any): its rates, or with
 * @cpu its dut CPU time per packet.
 */
struct stat3 row_samples(struct bench *b, struct row *r, bool cpu,
			 int *discarded)
{
	double v[MAX_ROUNDS], x;
	int t[MAX_ROUNDS], n = 0;
	struct stat3 st;
	uint32_t i;

	for (i = 0; i < b->rounds; i++) {
		if (!r->s[i].done)
			continue;
		x = cpu ? r->s[i].dut_ns : r->s[i].mpps;
		if (isnan(x))
			continue;
		t[n] = tier_of(&r->s[i]);
		v[n++] = x;
	}
	st = stats_tiered(v, t, n);
	if (discarded)
		*discarded = n - st.n;
	return st;
}

/* A field of a row's samples (@off: offsetof(struct sample, ...)) over
 * its rounds, noisy ones left out when there are clean ones.
 */
struct stat3 row_field(struct bench *b, struct row *r, size_t off)
{
	double v[MAX_ROUNDS], x;
	int t[MAX_ROUNDS], n = 0;
	uint32_t i;

	for (i = 0; i < b->rounds; i++) {
		if (!r->s[i].done)
			continue;
		x = *(double *)((char *)&r->s[i] + off);
		if (isnan(x))
			continue;
		t[n] = tier_of(&r->s[i]);
		v[n++] = x;
	}
	return stats_tiered(v, t, n);
}

/* @s against @q of the same round: the ratio of their rates (VS_RATIO),
 * the ns per packet @s takes more (VS_NS: 1e3/Mpps - 1e3/Mpps of @q),
 * the ratio of the rates gen offered (VS_GEN), the dut CPU time per
 * packet @s takes more (VS_CPU_NS), that as a fraction of @q's
 * (VS_CPU_COST), or @q's CPU time per packet over @s's (VS_CPU_RATIO:
 * the rate ratio the CPU times alone would give).
 */
bool vs_round(struct sample *s, struct sample *q, enum vs what, double *v)
{
	if (!s->done || !q->done || q->mpps <= 0)
		return false;
	switch (what) {
	case VS_RATIO:
		*v = s->mpps / q->mpps;
		break;
	case VS_NS:
		if (s->mpps <= 0)
			return false;
		*v = 1e3 / s->mpps - 1e3 / q->mpps;
		break;
	case VS_GEN:
		if (q->gen_mpps <= 0)
			return false;
		*v = s->gen_mpps / q->gen_mpps;
		break;
	case VS_CPU_NS:
	case VS_CPU_COST:
	case VS_CPU_RATIO:
		if (isnan(s->dut_ns) || isnan(q->dut_ns) || q->dut_ns <= 0 ||
		    s->dut_ns <= 0)
			return false;
		*v = what == VS_CPU_NS ? s->dut_ns - q->dut_ns :
		     what == VS_CPU_COST ? s->dut_ns / q->dut_ns - 1 :
					   q->dut_ns / s->dut_ns;
		break;
	}
	return true;
}

/* vs_round() of @r against @ref over the rounds (no @ref: no data). */
struct stat3 row_vs(struct bench *b, struct row *r, struct row *ref,
		    enum vs what)
{
	double v[MAX_ROUNDS], x;
	int t[MAX_ROUNDS], n = 0, ts, tq;
	uint32_t i;

	for (i = 0; ref && i < b->rounds; i++) {
		struct sample *s = &r->s[i], *q = &ref->s[i];

		if (!vs_round(s, q, what, &x))
			continue;
		ts = tier_of(s);
		tq = tier_of(q);
		t[n] = ts > tq ? ts : tq;
		v[n++] = x;
	}
	return stats_tiered(v, t, n);
}
