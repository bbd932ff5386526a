/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The redirect monitor (monitor.bpf.c) as a library: start it, read its
 * counters, stop it.  Nothing is pinned; the programs live as long as
 * the struct mon that holds them.  Around a measurement:
 *
 *	struct mon m = { .all = true, .any_netns = true };
 *
 *	if (mon_start(&m))
 *		return -1;	(the reason is printed)
 *	... send traffic ...
 *	mon_stop(&m);
 *
 * Without any_netns only devices of the calling thread's network
 * namespace are counted (the others still run the program up to that
 * check).
 */
#ifndef __BPFWD_LIB_MON_PROBES_H
#define __BPFWD_LIB_MON_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
#include "monitor.h"	/* the monitor's ABI, bpf/monitor.h */

#define MON_SIGNALS	11	/* programs in monitor.bpf.c */

struct mon_entry {
	struct bpfwd_mon_key k;
	struct bpfwd_mon_val v;		/* summed over CPUs */
};

/* The counters at one moment, sorted by key (for mon_find). */
struct mon_snapshot {
	struct mon_entry *e;
	int n;
	uint64_t lost;			/* events the full table refused */
};

struct mon {
	bool all;			/* set before mon_start: successes too */
	bool any_netns;			/* ... and every namespace's devices */
	bool no_kfree;			/* ... without skb:kfree_skb (stock tc) */
	bool no_bulk;			/* ... without the bulk tracepoints */
	struct monitor *skel;
	struct btf *btf;		/* the kernel's, for drop reason names */
	bool attached[MON_SIGNALS];
	struct bpf_link *links[MON_SIGNALS];
	int ncpus;
	struct bpfwd_mon_val *percpu;
};

/* Attaches to what this kernel has; on failure prints why (p_err),
 * leaves nothing attached and returns -errno.
 */
int mon_start(struct mon *m);
void mon_stop(struct mon *m);
/* Fills @s (free s->e with free()); 0 or -errno. */
int mon_read(struct mon *m, struct mon_snapshot *s);
const struct mon_entry *mon_find(const struct mon_snapshot *s,
				 const struct bpfwd_mon_key *k);
/* The signals, as reported ("xdp:xdp_redirect_err"); m->attached[i]
 * tells which are attached.
 */
size_t mon_nsignals(void);
/* Whether the kernel of @btf has tracepoint @event ("xdp_redirect"),
 * by its btf_trace_<event> typedef: no tracefs needed.
 */
bool mon_has_tracepoint(const struct btf *btf, const char *event);
const char *mon_signal(size_t i);

#endif /* __BPFWD_LIB_MON_PROBES_H */
