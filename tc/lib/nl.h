/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * rtnetlink over libmnl: clsact qdiscs, cls_bpf and u32 + act_bpf
 * filters.  Every call returns 0 or -errno; nl_extack() gives the
 * kernel's extack text of the last request (empty when the kernel gave
 * none).  Callers read it to word their own message; only nl.c writes
 * it.
 */
#ifndef __BPFWD_NL_H
#define __BPFWD_NL_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel's reason for the last failed request, or "". */
const char *nl_extack(void);

struct tc_filter_info {
	uint32_t prio;
	uint32_t handle;
	char kind[16];
	uint32_t prog_id;	/* cls_bpf only */
	char name[64];		/* cls_bpf TCA_BPF_NAME */
	bool direct_action;
};

int nl_clsact_add(int ifindex, bool *created);
int nl_clsact_del(int ifindex);
bool nl_clsact_exists(int ifindex);

/* cls_bpf direct-action at @prio, handle 1.  @replace swaps the program
 * of an existing filter atomically; otherwise an existing one is EEXIST.
 */
int nl_bpf_filter_set(int ifindex, bool egress, uint32_t prio, int prog_fd,
		      const char *name, bool replace);
/* u32 match-all + act_bpf, as a new u32 node at @prio (after any that
 * are there: a replace adds the new node, then deletes the old one).
 */
int nl_act_filter_add(int ifindex, bool egress, uint32_t prio, int prog_fd,
		      const char *name);
/* Deletes one filter (@handle and @kind given) or all at @prio (0). */
int nl_filter_del(int ifindex, bool egress, uint32_t prio, uint32_t handle,
		  const char *kind);

/* Dumps the filters of one hook; fills at most @max entries, returns the
 * number found or -errno.
 */
int nl_filter_list(int ifindex, bool egress, struct tc_filter_info *f,
		   int max);

/* XDP: sets (@prog_fd) or clears (-1) the program of @ifindex with
 * XDP_FLAGS_* @flags; with XDP_FLAGS_REPLACE only if @expected_fd's
 * program is the one there.
 */
int nl_xdp_set(int ifindex, int prog_fd, uint32_t flags, int expected_fd);

#endif /* __BPFWD_NL_H */
