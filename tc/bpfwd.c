// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd: global options and the object dispatch table.  The same
 * bpfwd_main() runs as the bpfwd binary and as `tc exec bpfwd ...`
 * through the e_bpfwd.so plugin.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "objects.h"
#include "lib/batch.h"
#include "lib/json.h"
#include "lib/loader.h"
#include "lib/util.h"

#ifndef BPFWD_VERSION
#define BPFWD_VERSION "0.1"
#endif

#define HELP_OPTIONS \
	"OPTIONS := { -j[son] | -p[retty] | -n[etns] NAME | -b[atch] FILE |\n" \
	"             -f[orce] | -v[erbose] | -V[ersion] | -h[elp] }\n"

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: bpfwd [OPTIONS] OBJECT { COMMAND | help }\n"
	       "       bpfwd [OPTIONS] -b FILE\n"
	       "where  OBJECT := { port | route | bridge | daemon | stats | probe | gen | bench | monitor | apply }\n"
	       "       " HELP_OPTIONS);
	return BPFWD_EXIT_OK;
}

static const struct cmd objects[] = {
	{ "port", do_port },
	{ "route", do_route },
	{ "stats", do_stats },
	{ "probe", do_probe },
	{ "gen", do_gen },
	{ "bench", do_bench },
	{ "monitor", do_monitor },
	{ "bridge", do_bridge },
	{ "daemon", do_daemon },
	{ "apply", do_apply },
	{ "help", do_help },
	{ 0 }
};

/* Enters a named netns the way `ip netns` keeps them, with setns():
 * no /sys remount, so the bpffs stays the host's.
 */
static int enter_netns(const char *name)
{
	char path[4096];
	int fd;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			p_err("netns %s: no such network namespace", name);
		else
			p_err("netns %s: %s", name, strerror(errno));
		return -errno;
	}
	if (setns(fd, CLONE_NEWNET)) {
		int err = -errno;

		if (err == -EPERM && geteuid())
			p_err("netns %s: must be run as root to enter it", name);
		else
			p_err("netns %s: setns: %s", name, strerror(-err));
		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

static int run_batch(const char *file, bool force);

static int dispatch(int argc, char **argv)
{
	opts.cmd = NULL;
	json_reset();
	if (argc < 1) {
		if (opts.json)
			return usage_err("missing object, try \"help\"");
		do_help(0, NULL);
		return BPFWD_EXIT_USAGE;
	}
	return cmd_select(objects, argc, argv, "object", do_help);
}

/* Stops at the first failed command and names its line; with -force
 * goes on, and exits 1 at the end if any failed.
 */
static int run_batch(const char *file, bool force)
{
	static struct batch b;
	int n, ret, failed = 0;

	if (batch_open(&b, "batch", file))
		return BPFWD_EXIT_FAIL;
	while ((n = batch_read(&b)) != 0) {
		if (n > 0)
			n = batch_split(&b);
		if (!n)
			continue;
		ret = n < 0 ? -n : dispatch(n, b.args);
		if (ret && n > 0) {
			opts.cmd = NULL;
			p_err("batch %s: line %d failed", file, b.first);
		}
		if (ret && !force) {
			failed = ret;
			break;
		}
		if (ret)
			failed = BPFWD_EXIT_FAIL;
	}
	batch_close(&b);
	return failed;
}

/* The global options, as iproute2's ip.c takes them: single-dash words
 * matched by prefix ("-j", "-json"), "--json" too, first match wins.
 */
enum opt_id { O_JSON, O_PRETTY, O_NETNS, O_BATCH, O_FORCE, O_VERSION,
	      O_HELP, O_VERBOSE };

static const char *const opt_words[] = {
	[O_JSON] = "-json", [O_PRETTY] = "-pretty", [O_NETNS] = "-netns",
	[O_BATCH] = "-batch", [O_FORCE] = "-force", [O_VERSION] = "-Version",
	[O_HELP] = "-help", [O_VERBOSE] = "-verbose",
};

struct global {
	const char *batch;
	bool force;
};

/* Which option @arg is ("-j", "--json"), or -1. */
static int opt_of(const char *arg)
{
	size_t i;

	if (is_word(arg, "--version"))	/* as getopt's bpfwd took it */
		return O_VERSION;
	if (arg[0] == '-' && arg[1] == '-' && arg[2])
		arg++;
	for (i = 0; arg[1] && i < ARRAY_SIZE(opt_words); i++)
		if (matches(arg, opt_words[i]))
			return i;
	return -1;
}

/* Takes the options before the object, stepping *argc / *argv past
 * them.  Returns 0 to go on, or sets *stop and returns the exit code
 * (-h and -V exit 0, a bad option 2).
 */
static int parse_options(int *argc, char ***argv, struct global *g,
			 bool *stop)
{
	char **av = *argv;
	int i, id;

	*stop = true;
	for (i = 0; i < *argc && av[i][0] == '-'; i++) {
		if (is_word(av[i], "--")) {
			i++;
			break;
		}
		id = opt_of(av[i]);
		if ((id == O_NETNS || id == O_BATCH) && i + 1 >= *argc)
			return usage_err("option %s needs a value, try bpfwd help",
					 av[i]);
		switch (id) {
		case O_JSON:
			opts.json = true;
			break;
		case O_PRETTY:
			opts.json = opts.pretty = true;
			break;
		case O_NETNS:
			opts.netns = av[++i];
			break;
		case O_BATCH:
			g->batch = av[++i];
			break;
		case O_FORCE:
			g->force = true;
			break;
		case O_VERBOSE:
			opts.verbose++;
			break;
		case O_VERSION:
			printf("bpfwd %s\n", BPFWD_VERSION);
			return BPFWD_EXIT_OK;
		case O_HELP:
			return do_help(0, NULL);
		default:
			return usage_err("unknown option %s, try bpfwd help",
					 av[i]);
		}
	}
	*argc -= i;
	*argv += i;
	*stop = false;
	return 0;
}

int bpfwd_main(int argc, char **argv)
{
	struct global g = { 0 };
	bool stop;
	int ret;

	memset(&opts, 0, sizeof(opts));
	json_reset();
	loader_set_print();
	argc--;		/* the program's name */
	argv++;
	ret = parse_options(&argc, &argv, &g, &stop);
	if (stop)
		return ret;
	if (g.batch && argc > 0)
		return usage_err("-b FILE: unexpected \"%s\" (the commands come from FILE)",
				 argv[0]);
	if (opts.netns && enter_netns(opts.netns))
		return BPFWD_EXIT_FAIL;
	if (g.batch)
		return run_batch(g.batch, g.force);
	return dispatch(argc, argv);
}
