/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * route show: the route devices, their hook and switches, and their
 * counters (also what `bpfwd stats` prints for them).
 */
#ifndef __BPFWD_ROUTE_SHOW_H
#define __BPFWD_ROUTE_SHOW_H

#include <stdint.h>

/* The whole document: every route device, or those of @idx (@n of
 * them, an error for one that is not a route device).  Returns the
 * number printed or -errno.
 */
int route_show_devs(const uint32_t *idx, int n);

#endif /* __BPFWD_ROUTE_SHOW_H */
