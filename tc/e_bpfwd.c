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
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "objects.h"
#include "lib/util.h"

/* tc's struct, declared here: Debian ships no iproute2 headers. */
struct exec_util {
	struct exec_util *next;
	char id[16];
	int (*parse_eopt)(struct exec_util *eu, int argc, char **argv);
};

/* tc's own -j and -p: globals the tc binary exports (NULL elsewhere) */
static bool tc_flag(const char *name)
{
	int *v = dlsym(RTLD_DEFAULT, name);

	return v && *v;
}

/* -n moves the whole tc process into the namespace; in tc -b the next
 * lines (other execs without -n, tc's own commands) must not run there.
 */
static int netns_return(int self, int ret)
{
	struct stat was, now;

	if (self < 0)
		return ret;
	if (!fstat(self, &was) && !stat("/proc/self/ns/net", &now) &&
	    (was.st_ino != now.st_ino || was.st_dev != now.st_dev) &&
	    setns(self, CLONE_NEWNET)) {
		opts.cmd = NULL;
		p_err("cannot return to tc's network namespace: %s",
		      strerror(errno));
		ret = ret ? ret : BPFWD_EXIT_FAIL;
	}
	close(self);
	return ret;
}

static int bpfwd_parse_eopt(struct exec_util *eu, int argc, char **argv)
{
	char *args[256];
	int i, n = 0, self, ret;

	(void)eu;
	if (argc > 252) {
		fprintf(stderr, "bpfwd: too many arguments\n");
		return 2;
	}
	/* bpfwd_main() wants argv[0] to be the program, as main() has it */
	args[n++] = "bpfwd";
	/* `tc -j exec bpfwd ...` prints JSON like every other tc -j */
	if (tc_flag("json"))
		args[n++] = tc_flag("pretty") ? "-p" : "-j";
	for (i = 0; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ret = bpfwd_main(n, args);
	fflush(stdout);
	return netns_return(self, ret);
}

__attribute__((visibility("default")))
struct exec_util bpfwd_exec_util = {
	.id = "bpfwd",
	.parse_eopt = bpfwd_parse_eopt,
};
