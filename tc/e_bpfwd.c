// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * iproute2 plugin: `tc exec bpfwd port add dev eth0 to eth1` runs the
 * same commands as the bpfwd binary.  tc dlopen()s e_bpfwd.so from its
 * lib dir (TC_LIB_DIR overrides it), looks up bpfwd_exec_util and calls
 * parse_eopt with the words after "bpfwd"; its return value becomes
 * tc's exit status.  Everything but that symbol is hidden, so tc's own
 * exported functions cannot shadow ours.
 */
#include <stdio.h>
#include <string.h>

#include "bpfwd.h"

/* tc's struct, declared here: Debian ships no iproute2 headers. */
struct exec_util {
	struct exec_util *next;
	char id[16];
	int (*parse_eopt)(struct exec_util *eu, int argc, char **argv);
};

static int bpfwd_parse_eopt(struct exec_util *eu, int argc, char **argv)
{
	char *args[256];
	int i, ret;

	(void)eu;
	if (argc > 254) {
		fprintf(stderr, "bpfwd: too many arguments\n");
		return 2;
	}
	/* bpfwd_main() wants argv[0] to be the program, as main() has it */
	args[0] = "bpfwd";
	for (i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	args[argc + 1] = NULL;
	ret = bpfwd_main(argc + 1, args);
	fflush(stdout);
	return ret;
}

__attribute__((visibility("default")))
struct exec_util bpfwd_exec_util = {
	.id = "bpfwd",
	.parse_eopt = bpfwd_parse_eopt,
};
