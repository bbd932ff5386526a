/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The global options of one bpfwd invocation (-j, -p, -v, -n, and the
 * command that runs, for messages).  Its own file so that both the
 * printing (json.c) and the error helpers (util.c) read it without
 * calling each other.
 */
#ifndef __BPFWD_OPTS_H
#define __BPFWD_OPTS_H

#include <stdbool.h>

struct bpfwd_opts {
	bool json;
	bool pretty;
	int verbose;
	const char *netns;	/* -n NAME, already entered */
	const char *cmd;	/* "port add" etc, for messages */
};

extern struct bpfwd_opts opts;

#endif /* __BPFWD_OPTS_H */
