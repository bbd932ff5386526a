// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The table of hooks (see hook.h): one entry per struct hook_ops.
 */
#include <string.h>

#include "hook.h"
#include "lib/attach.h"
#include "lib/util.h"

static const struct hook_ops *const hooks[] = {
	[BPFWD_HOOK_NONE] = &hook_none,
	[BPFWD_HOOK_TC] = &hook_tc,
	[BPFWD_HOOK_TCX] = &hook_tcx,
	[BPFWD_HOOK_ACT] = &hook_act,
	[BPFWD_HOOK_XDP] = &hook_xdp,
};

_Static_assert(ARRAY_SIZE(hooks) == __BPFWD_HOOK_MAX, "one ops per hook");

const struct hook_ops *hook_by_id(uint32_t id)
{
	return id < ARRAY_SIZE(hooks) ? hooks[id] : NULL;
}

const struct hook_ops *hook_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!strcmp(hooks[i]->name, name))
			return hooks[i];
	return NULL;
}

const char *hook_name(uint32_t id)
{
	const struct hook_ops *ops = hook_by_id(id);

	return ops ? ops->name : "?";
}

uint32_t hook_default(void)
{
	return kernel_has_tcx() ? BPFWD_HOOK_TCX : BPFWD_HOOK_TC;
}

struct hook_stats *hook_stats_read(struct table *t,
				   const struct bpfwd_port *p)
{
	const struct hook_ops *ops = hook_by_id(p->hook);

	return ops && ops->stats_read ? ops->stats_read(t, p) : NULL;
}

void hook_stats_print(const struct hook_stats *m,
		      const struct hook_stats *prev, double secs)
{
	if (m)
		m->ops->stats_print(m, prev, secs);
}

void hook_stats_free(struct hook_stats *m)
{
	if (m)
		m->ops->stats_free(m);
}

void hook_probe_print(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (hooks[i]->probe)
			hooks[i]->probe();
}
