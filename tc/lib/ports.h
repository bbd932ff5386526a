/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * A port table: bpfwd_ports + bpfwd_stats pinned in one directory,
 * either the namespace's own (<root>/bpfwd/<cookie>) or the one stock tc
 * shares (<root>/tc/globals).
 */
#ifndef __BPFWD_PORTS_H
#define __BPFWD_PORTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "bpfwd.h"	/* the ABI, bpf/bpfwd.h */

struct table {
	bool stock;		/* tc/globals */
	bool created;		/* this command created the pins */
	int ports_fd;
	int stats_fd;
	char dir[PATH_MAX];
};

/* Opens a table to change it; with @create makes (and pins) its maps
 * when missing.  Returns -ENOENT (no message) when it does not exist and
 * !create.  It locks the table's directory until the process ends (see
 * pin_dir_lock()), as do the functions below that change a table
 * opened with table_open_read(): changes in one namespace serialise.
 */
int table_open(struct table *t, bool stock, bool create);
/* table_open() without create, for finding and listing ports: a stock
 * table of an older layout is warned about (once) and taken as absent
 * (-ENOENT), so that it cannot hide the namespace's own ports.
 */
int table_open_read(struct table *t, bool stock);
/* table_check_layout() of the stock table's pin directory. */
int stock_check_layout(bool warn);
void table_close(struct table *t);
/* Removes the table's pins (and the netns dir) when no port is left. */
void table_gc(struct table *t);

int port_get(struct table *t, uint32_t ifindex, struct bpfwd_port *p);
int port_put(struct table *t, uint32_t ifindex, const struct bpfwd_port *p,
	     uint64_t flags);
int port_delete(struct table *t, uint32_t ifindex);
/* Iterates the entries: returns the number found, fills up to @max. */
int port_list(struct table *t, uint32_t *ifindex, struct bpfwd_port *p,
	      int max);
int slot_alloc(struct table *t, uint32_t *slot);

/* The port on @ifindex that this namespace owns: in its own table
 * first, then in the stock one (entries this namespace wrote).  Returns
 * 0 with @t open, -ENOENT (no message), or another -errno that
 * table_open() already reported (a stale pin of the namespace's table;
 * a stale stock table is only warned about).
 */
int port_find(uint32_t ifindex, struct table *t, struct bpfwd_port *p);

/* The modes' names, indexed by enum bpfwd_mode, as the user types them. */
extern const char *const port_mode_words[__BPFWD_MODE_MAX];
const char *port_mode_name(uint32_t mode);

/* Whether this namespace owns the entry (the stock table is shared). */
bool port_owned(const struct table *t, const struct bpfwd_port *p);

/* Calls @fn for every port this namespace owns, in its own table, then
 * in the stock one.  Missing tables are skipped; the walk goes on past
 * a failing @fn and returns its first error.  With @gc, tables left
 * without ports lose their pins afterwards.
 */
typedef int (*port_fn)(struct table *t, uint32_t ifindex,
		       const struct bpfwd_port *p, void *data);
int ports_walk(port_fn fn, void *data, bool gc);
/* Calls @fn for every entry of @t (owned or not), from a snapshot, so
 * that @fn may change the table; goes on past a failing @fn and returns
 * its first error (or -ENOMEM).
 */
int table_each(struct table *t, port_fn fn, void *data);
/* ports_walk() that also calls @tfn, if not NULL, once for each
 * table, before its ports (for what a table has besides ports, like
 * its unmatched slot); its errors count as @fn's do.
 */
typedef int (*table_fn)(struct table *t, void *data);
int ports_walk_tables(table_fn tfn, port_fn fn, void *data, bool gc);

/* Sums a slot over CPUs; @percpu, if not NULL, gets nr_cpus entries. */
int stats_read(struct table *t, uint32_t slot, struct bpfwd_stats *sum,
	       struct bpfwd_stats *percpu);
/* Zeroes a slot's counters; -EBUSY, leaving them, when an entry of the
 * table still uses it.
 */
int stats_clear(struct table *t, uint32_t slot);
int nr_cpus(void);

/* What the kernel says of a port's target now.  A tc program cannot
 * tell: bpf_redirect() succeeds and the kernel drops the frame after the
 * program returned (and counted it), so a target that is not up turns
 * the port's packets into losses that only bpfwd monitor sees.
 */
enum port_target_state {
	TS_NONE,		/* no target (passed row, flood, cpumap pass) */
	TS_UP,
	TS_DOWN,		/* administratively down */
	TS_NO_CARRIER,		/* up, but no link (a veth's peer is down) */
	TS_GONE,		/* no device has the ifindex any more */
	TS_UNKNOWN,		/* netlink did not say */
};
/* "-", "up", "down", "no-carrier", "gone", "unknown" */
extern const char *const port_target_state_names[];
enum port_target_state port_target_state(uint32_t ifindex);

/* The names of the ports' devices, in a map beside the table
 * (bpfwd_names: ifindex -> name), so that a port whose device is gone
 * can still be named (port show, port del dev NAME) and the daemon can
 * re-attach it to a device of that name that comes back.  The entry's ABI
 * stays as it is; a port without a name there (made by an older bpfwd,
 * or a command killed in between) is named by its ifindex.  Not in the
 * stock table's directory, which is tc's (hook none ports have none).
 */
#define BPFWD_MAP_NAMES		"bpfwd_names"
int port_name_put(struct table *t, uint32_t ifindex, const char *name);
/* 0 and @name (IF_NAMESIZE bytes), or -ENOENT */
int port_name_get(struct table *t, uint32_t ifindex, char *name);
/* The name of the target of the port on @ifindex when it was set (the
 * daemon points the port at a device of that name that comes back).
 */
int port_target_name_put(struct table *t, uint32_t ifindex, const char *name);
int port_target_name_get(struct table *t, uint32_t ifindex, char *name);
/* Both names of the port on @ifindex. */
void port_name_del(struct table *t, uint32_t ifindex);
/* The port this namespace owns whose device was named @name and is
 * gone: 0 with @t open, *@ifindex and @p, or -ENOENT (no message).
 */
int port_find_gone(const char *name, uint32_t *ifindex, struct table *t,
		   struct bpfwd_port *p);

/* Path of the tcx link pin of a port. */
void link_pin_path(struct table *t, uint32_t ifindex, bool egress,
		   char *buf, size_t len);

#endif /* __BPFWD_PORTS_H */
