/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd route: the routing fast path (route.o) on tc, tcx or XDP.
 * Its entry points, do_route() and route_help(), are in objects.h.
 */
#ifndef __BPFWD_ROUTE_H
#define __BPFWD_ROUTE_H

#include <stdint.h>

/* For `bpfwd stats`: one JSON object (text: one line, then one per
 * reason that moved) per route device, or only for @only (an ifindex;
 * 0: all), inside the caller's JSON array.  Returns the number of
 * devices printed (0 when route is not in use here) or -errno.
 */
int route_stats_show(uint32_t only);

#endif /* __BPFWD_ROUTE_H */
