/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Attaching a loaded program to a device: tc (clsact + cls_bpf da, or
 * u32 + act_bpf) or tcx (pinned bpf_link).  Replace swaps the program
 * in place, so no frame sees the port without a program.  Which of them
 * a port uses is its hook's business (tc/hook_*.c).
 */
#ifndef __BPFWD_ATTACH_H
#define __BPFWD_ATTACH_H

#include <stdbool.h>
#include <stdint.h>
#include "ports.h"

#ifndef BPF_TCX_INGRESS
#define BPF_TCX_INGRESS 46
#define BPF_TCX_EGRESS 47
#endif
#define BPFWD_LINK_TYPE_TCX 11	/* BPF_LINK_TYPE_TCX, Linux 6.6 */

struct attach_req {
	struct table *t;
	uint32_t ifindex;
	const char *dev;	/* for messages */
	bool egress;
	bool act;		/* tc: u32 + act_bpf instead of cls_bpf */
	uint32_t prio;
	int prog_fd;
	const char *prog_name;
	bool replace;
	bool own_clsact;	/* out: bpfwd created the clsact qdisc */
};

/* tc: clsact + cls_bpf direct-action (u32 + act_bpf with @act) at
 * @prio.  Replace swaps the program of the filter in place.
 */
int tc_filter_attach(struct attach_req *r);
/* Removes the filter at @prio; @own_clsact: and the clsact qdisc bpfwd
 * made, when no filter is left on it.
 */
int tc_filter_detach(uint32_t ifindex, const char *dev, bool egress,
		     uint32_t prio, bool own_clsact);
bool tc_filter_attached(uint32_t ifindex, bool egress, uint32_t prio);
/* The id of the program of the filter at @prio: 0 and *@id (0 for a u32
 * + act_bpf filter, whose program the dump does not name), or -ENOENT
 * when there is no filter.
 */
int tc_filter_prog(uint32_t ifindex, bool egress, uint32_t prio,
		   uint32_t *id);

/* tcx: a bpf_link pinned next to the table (link_pin_path()). */
int tcx_attach(struct attach_req *r);
int tcx_detach(struct table *t, uint32_t ifindex, const char *dev,
	       bool egress);
/* Whether the link is there and still attached to @ifindex (a link
 * whose device went away stays pinned, detached).
 */
bool tcx_attached(struct table *t, uint32_t ifindex, bool egress);
/* The id of the program of the port's link: 0, or -ENOENT when the
 * link is not there or not attached to @ifindex.
 */
int tcx_prog(struct table *t, uint32_t ifindex, bool egress, uint32_t *id);

bool kernel_has_tcx(void);

#endif /* __BPFWD_ATTACH_H */
