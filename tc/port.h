/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * A port as the port command and its callers (bench) describe it, and
 * the library entries that do what `bpfwd port add ...` and `bpfwd port
 * del dev X` do, without argv and without help.  The keywords of the
 * command write these fields; a caller that builds a port_cfg itself
 * leaves what it does not mean at 0 (port_cfg_init()).
 */
#ifndef __BPFWD_PORT_H
#define __BPFWD_PORT_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/ports.h"

/* tc, tcx, act and none: to-ingress, at, prio */
struct port_tc_args {
	bool to_ingress;
	uint32_t at;		/* PORT_AT_*: 0 when not given */
	uint32_t prio;		/* 0 when not given: 1 */
};

enum { PORT_AT_UNSET, PORT_AT_INGRESS, PORT_AT_EGRESS };

/* xdp: cpus, qsize, then, group, xdp-mode, fix-offload */
struct port_xdp_args {
	struct bpfwd_cpus cpus;	/* count 0 when not given */
	uint32_t qsize;		/* 0 when not given */
	uint32_t then;		/* PORT_THEN_*: 0 when not given */
	struct {
		uint32_t v;
		bool set;
	} group;
	uint32_t xdp_mode;	/* PORT_XDP_*: 0 when not given */
	bool fix_offload;	/* tx checksumming off on IN's veth peer */
};

enum { PORT_THEN_UNSET, PORT_THEN_PASS };
enum { PORT_XDP_UNSET, PORT_XDP_NATIVE, PORT_XDP_GENERIC };

struct port_cfg {
	const char *dev;	/* IN */
	const char *to;		/* OUT, or NULL */
	uint32_t mode;		/* enum bpfwd_mode, with has_mode */
	uint32_t hook;		/* enum bpfwd_hook, with has_hook */
	bool has_mode, has_hook;
	bool force;		/* del: also another namespace's entry */
	struct port_tc_args tc;
	struct port_xdp_args xdp;
	/* filled by the command */
	int in, out;		/* ifindexes of dev and to */
};

/* How a port differs from a port_cfg (apply). */
enum port_diff { PORT_SAME, PORT_REPLACE, PORT_READD };

/* What port_apply_cfg() did. */
enum port_did { PORT_UNCHANGED, PORT_ADDED, PORT_REPLACED, PORT_READDED };

/* PORT_SPEC's words (argv after "port add") into @c, with every usage
 * check of port add and its hook resolved (c->has_hook is then set):
 * 0, or BPFWD_EXIT_USAGE with the message printed.
 */
int port_spec_parse(int argc, char **argv, struct port_cfg *c);
/* `apply` of one port, @c from port_spec_parse(): adds it when missing,
 * replaces it when it differs (deletes and adds it when it differs in
 * what replace keeps: hook, at, prio), leaves it alone when it is what
 * @c says, program included.  0 with *@did, or -errno (reported); a
 * failure leaves the port as it was (but for a del and add whose add
 * failed: then it is gone, and said so).
 */
int port_apply_cfg(const struct port_cfg *c, enum port_did *did);

/* `port add`: checks @c as the parser does (one usage line, -EINVAL),
 * then adds the port.  0 or -errno; every failure is reported once and
 * leaves what was there before.  Without has_hook: tcx where the kernel
 * has it, else tc.
 */
int port_add_cfg(const struct port_cfg *c);
/* `port replace`: changes a port in place (it keeps its hook and what
 * @c does not name), or adds it when there is none.
 */
int port_replace_cfg(const struct port_cfg *c);
/* `port del dev @dev [force]`: also a port whose device is gone, by
 * the name it had.
 */
int port_del_dev(const char *dev, bool force);
/* `port del ifindex @ifindex [force]`. */
int port_del_ifindex(uint32_t ifindex, bool force);

#endif /* __BPFWD_PORT_H */
