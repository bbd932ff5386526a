// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * route show and the route rows of stats: one print call per value,
 * text and JSON alike.  JSON has every reason under "passed" (zeros
 * too, so that jq finds them); text names those that moved.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "lib/json.h"
#include "lib/util.h"
#include "route.h"
#include "route_attach.h"
#include "route_maps.h"
#include "hook.h"
#include "route_show.h"

static void print_counters(const struct bpfwd_route_stats *s)
{
	uint64_t passed = 0;
	int i;

	for (i = 0; i < __BPFWD_RT_MAX; i++)
		passed += s->passed[i];
	print_u64(PRINT_ANY, "forwarded", " forwarded %llu", s->forwarded);
	print_u64(PRINT_ANY, "bytes", " bytes %llu", s->bytes);
	print_u64(PRINT_ANY, "neigh", " (neigh %llu)", s->neigh);
	print_u64(PRINT_ANY, "passed_total", " passed %llu", passed);
	open_json_object("passed");
	for (i = 0; i < __BPFWD_RT_MAX; i++) {
		char fmt[40];

		if (!s->passed[i])
			print_u64(PRINT_JSON, rt_reason_name(i), NULL, 0);
		if (!s->passed[i])
			continue;
		snprintf(fmt, sizeof(fmt), "\n    %-14s %%llu",
			 rt_reason_name(i));
		print_u64(PRINT_ANY, rt_reason_name(i), fmt, s->passed[i]);
	}
	close_json_object();
}

static void show_dev(struct rt *r, const struct rt_dev *d)
{
	struct bpfwd_route_stats s;
	struct route_att a = {
		.ifindex = d->ifindex, .hook = d->cfg.hook, .dir = r->dir,
		.generic = d->cfg.flags & BPFWD_RT_F_XDP_GENERIC,
	};
	char name[IF_NAMESIZE];
	bool gone = !if_indextoname(d->ifindex, name);
	uint32_t f = d->cfg.flags;

	if (gone)
		snprintf(name, sizeof(name), "if%u", d->ifindex);
	a.dev = name;
	open_json_object(NULL);
	if (gone)	/* JSON: null, as for every device that is gone */
		print_null(PRINT_JSON, "dev", NULL);
	print_string(gone ? PRINT_FP : PRINT_ANY, "dev", "%s", name);
	print_u64(PRINT_JSON, "ifindex", NULL, d->ifindex);
	print_string(PRINT_ANY, "hook", " hook %s", hook_name(d->cfg.hook));
	if (d->cfg.hook == BPFWD_HOOK_XDP)
		print_string(PRINT_ANY, "xdp_mode", " xdp-mode %s",
			     f & BPFWD_RT_F_XDP_GENERIC ? "generic" : "native");
	print_bool(PRINT_JSON, "attached", NULL, !gone && route_attached(&a));
	if (gone || !route_attached(&a))
		print_string(PRINT_FP, NULL, "%s", gone ? " (gone)" : " (detached)");
	print_string(PRINT_ANY, "rp_filter", " rp_filter %s",
		     f & BPFWD_RT_F_RPF_STRICT ? "strict" :
		     f & BPFWD_RT_F_RPF_LOOSE ? "loose" : "off");
	print_bool(PRINT_JSON, "ipv6", NULL, !(f & BPFWD_RT_F_NO_IP6));
	if (f & BPFWD_RT_F_NO_IP6)
		print_string(PRINT_FP, NULL, "%s", " ipv6 to-stack");
	if (!rt_stats_read(r, d->cfg.slot, &s))
		print_counters(&s);
	print_nl();
	close_json_object();
}

/* The devices of @idx, or all (n == 0) */
static int show_list(struct rt *r, const uint32_t *idx, int n)
{
	static struct rt_dev d[BPFWD_RT_MAX_DEVS];
	int cnt = rt_list(r, d, BPFWD_RT_MAX_DEVS), i, j, shown = 0;

	for (i = 0; i < cnt && i < BPFWD_RT_MAX_DEVS; i++) {
		for (j = 0; j < n && idx[j] != d[i].ifindex; j++)
			;
		if (n && j == n)
			continue;
		show_dev(r, &d[i]);
		shown++;
	}
	return shown;
}

static int check_devs(struct rt *r, const uint32_t *idx, int n)
{
	struct bpfwd_route_cfg c;
	char name[IF_NAMESIZE];
	int i;

	for (i = 0; i < n; i++) {
		if (rt_get(r, idx[i], &c)) {
			p_err("%s: not a route device", ifname_of(idx[i], name));
			return -ENOENT;
		}
	}
	return 0;
}

int route_show_devs(const uint32_t *idx, int n)
{
	struct rt r;
	int err, shown = 0;

	err = rt_open(&r, false);
	if (err && err != -ENOENT)
		return err;
	if (err && n) {
		p_err("%s: not a route device (route is not in use here)",
		      ifname_of(idx[0], (char[IF_NAMESIZE]){ 0 }));
		return err;
	}
	if (!err && check_devs(&r, idx, n)) {
		rt_close(&r);
		return -ENOENT;
	}
	json_begin();
	open_json_array(NULL);
	if (!err)
		shown = show_list(&r, idx, n);
	close_json_array();
	json_end();
	if (!err)
		rt_close(&r);
	return shown;
}

int route_stats_show(uint32_t only)
{
	struct rt r;
	int err, shown;

	err = rt_open(&r, false);
	if (err)
		return err == -ENOENT ? 0 : err;
	shown = show_list(&r, &only, only ? 1 : 0);
	rt_close(&r);
	return shown;
}
