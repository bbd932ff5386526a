/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The state of `bpfwd route` in one namespace: its pin directory
 * <bpffs>/bpfwd/<netns cookie>/route/ (maps bpfwd_rt_cfg, its copy
 * bpfwd_rt_idx, bpfwd_rt_stats, bpfwd_rt_dev and the tcx links), the lock that
 * serialises commands, loading route.o, and the counters.
 */
#ifndef __BPFWD_ROUTE_MAPS_H
#define __BPFWD_ROUTE_MAPS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "../bpf/bpfwd.h"

struct rt {
	char dir[PATH_MAX];
	int lock_fd;
	int cfg_fd;
	int stats_fd;
	int dev_fd;		/* -1 until an XDP device needs it */
	int idx_fd;		/* -1 until rt_load() when older pins lack it */
};

struct rt_dev {
	uint32_t ifindex;
	struct bpfwd_route_cfg cfg;
};

/* Opens the namespace's route state.  With @create makes the directory
 * and takes the lock (the maps come with rt_load()); without, -ENOENT
 * (no message) when route is not in use here.
 */
int rt_open(struct rt *r, bool create);
void rt_close(struct rt *r);
/* Loads route_tc (@xdp false) or route_xdp with the maps pinned in the
 * directory; returns the program's fd (valid until rt_unload()).
 */
int rt_load(struct rt *r, bool xdp, void **skel, const char **name);
void rt_unload(void *skel);
/* Removes the pins and the directory when no device is left. */
void rt_gc(struct rt *r);

int rt_get(struct rt *r, uint32_t ifindex, struct bpfwd_route_cfg *c);
/* rt_put() and rt_del() keep bpfwd_rt_idx a copy of bpfwd_rt_cfg. */
int rt_put(struct rt *r, uint32_t ifindex, const struct bpfwd_route_cfg *c,
	   uint64_t flags);
int rt_del(struct rt *r, uint32_t ifindex);
/* The devices, by ifindex; returns how many (fills at most @max). */
int rt_list(struct rt *r, struct rt_dev *d, int max);
int rt_slot_alloc(struct rt *r, uint32_t *slot);
int rt_stats_read(struct rt *r, uint32_t slot, struct bpfwd_route_stats *s);
int rt_stats_clear(struct rt *r, uint32_t slot);
/* XDP egress devices: in (@on) or out of bpfwd_rt_dev */
int rt_devmap_set(struct rt *r, uint32_t ifindex, bool on);

const char *rt_reason_name(int reason);

#endif /* __BPFWD_ROUTE_MAPS_H */
