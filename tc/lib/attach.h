/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Attaching a loaded program to a port: tc (clsact + cls_bpf da), tcx
 * (pinned bpf_link) or act (u32 + act_bpf).  Replace swaps the program
 * in place, so no frame sees the port without a program.
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

struct attach_req {
	struct table *t;
	uint32_t ifindex;
	const char *dev;	/* for messages */
	bool egress;
	uint32_t hook;		/* enum bpfwd_hook */
	uint32_t prio;
	int prog_fd;
	const char *prog_name;
	bool replace;
	bool own_clsact;	/* out: bpfwd created the clsact qdisc */
};

int attach_port(struct attach_req *r);
/* Removes what attach_port() made; @own_clsact from the entry's flags. */
int detach_port(struct table *t, uint32_t ifindex, const char *dev,
		bool egress, uint32_t hook, uint32_t prio, bool own_clsact);
/* Whether the port's program is still in place (for show). */
bool port_attached(struct table *t, uint32_t ifindex, bool egress,
		   uint32_t hook, uint32_t prio);

bool kernel_has_tcx(void);
const char *hook_name(uint32_t hook);
bool hook_is_tc_family(uint32_t hook);

#endif /* __BPFWD_ATTACH_H */
