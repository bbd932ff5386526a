/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The XDP side of the port, stats and probe objects: port.c hands
 * `hook xdp` commands here, stats.c and probe.c call in for the XDP
 * figures they print.
 */
#ifndef __BPFWD_TC_XDP_H
#define __BPFWD_TC_XDP_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/ports.h"

#define HELP_SPEC_XDP \
	"XDP_SPEC := dev IN { to OUT [ mode { redirect | map } ] |\n" \
	"                     cpus LIST [ qsize N ] [ then pass ] [ to OUT ] |\n" \
	"                     mode flood [ group N ] } hook xdp\n" \
	"            [ xdp-mode { native | generic } ]\n"

/* Whether a port add/replace command is for an XDP port. */
bool xdp_cmd_wanted(bool replace, int argc, char **argv);
int xdp_port_cmd(bool replace, int argc, char **argv);

const char *xdp_mode_name(uint32_t mode);
void xdp_show_one(struct table *t, uint32_t ifindex,
		  const struct bpfwd_port *p);
/* In a stats row: the cpumap figures of an XDP cpumap port, per CPU.
 * xdp_stats_read() takes them from port @p of table @t: NULL for any
 * other port, or when they cannot be read.  xdp_stats_print() prints
 * them as counts, or with @prev (an earlier read) as rates over @secs,
 * with the same keys.
 */
struct xdp_cpumap_stats;
struct xdp_cpumap_stats *xdp_stats_read(struct table *t,
					const struct bpfwd_port *p);
void xdp_stats_print(const struct xdp_cpumap_stats *m,
		     const struct xdp_cpumap_stats *prev, double secs);
void xdp_stats_free(struct xdp_cpumap_stats *m);
/* In probe: native XDP per device of this namespace. */
void xdp_probe_print(void);

#endif /* __BPFWD_TC_XDP_H */
