// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench rows with bpfwd monitor running: OFF+mon-errors,
 * OFF+mon-all and OFF+mon-nobulk (errors only, without the bulk
 * tracepoints) are row OFF set up as it is, then the monitor started in
 * this process, for every namespace (the bench's are not the one it
 * runs in).  Their report compares them with OFF (report.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "lib/nsrun.h"
#include "lib/util.h"

const char *const bench_mon_names[] = {
	[MON_ERRORS] = "errors", [MON_ALL] = "all", [MON_NOBULK] = "nobulk",
};

/* Whether the monitor starts here at all, tried once per mode in a
 * child so that what it prints becomes the rows' reason.
 */
static int mon_probe_fn(void *arg)
{
	struct mon m = { .all = *(bool *)arg, .any_netns = true };

	opts.json = false;
	opts.cmd = "bench: monitor";
	if (mon_start(&m))
		return 1;
	mon_stop(&m);
	return 0;
}

const char *need_mon(struct bench *b, const struct method *m)
{
	static char reason[2][ERRLEN];
	static int have[2] = { -1, -1 };
	bool all = m->mon == MON_ALL;
	char err[ERRLEN];

	if (have[all] < 0) {
		have[all] = !ns_call(-1, mon_probe_fn, &all, err, sizeof(err));
		if (!have[all])
			snprintf(reason[all], sizeof(reason[all]),
				 "the monitor cannot run here: %s",
				 err[0] ? err : "it failed to start");
	}
	return have[all] ? NULL : reason[all];
}

int mon_setup(struct bench *b, const struct method *m)
{
	bool json = opts.json;
	int err;

	err = m->off->setup(b, m->off);
	if (err)
		return err;
	memset(&b->mon, 0, sizeof(b->mon));
	b->mon.all = m->mon == MON_ALL;
	b->mon.no_bulk = m->mon == MON_NOBULK;
	b->mon.any_netns = true;
	/* its message to stderr, not into the JSON document */
	opts.json = false;
	err = mon_start(&b->mon);
	opts.json = json;
	if (err)
		snprintf(b->err, sizeof(b->err), "monitor %s: %s (see above)",
			 bench_mon_names[m->mon], strerror(-err));
	return err;
}

void mon_teardown(struct bench *b, const struct method *m)
{
	mon_stop(&b->mon);
	m->off->teardown(b, m->off);
}
