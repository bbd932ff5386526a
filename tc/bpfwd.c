// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd: global options and the object dispatch table.  The same
 * bpfwd_main() runs as the bpfwd binary and as `tc exec bpfwd ...`
 * through the e_bpfwd.so plugin.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpfwd.h"
#include "lib/json.h"
#include "lib/loader.h"
#include "lib/util.h"

#ifndef BPFWD_VERSION
#define BPFWD_VERSION "0.1"
#endif

#define HELP_OPTIONS \
	"OPTIONS := { -j[son] | -p[retty] | -n[etns] NAME | -v[erbose] |\n" \
	"             -b[atch] FILE | -V[ersion] | -h[elp] }\n"

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: bpfwd [OPTIONS] OBJECT { COMMAND | help }\n"
	       "       bpfwd [OPTIONS] -b FILE\n"
	       "where  OBJECT := { port | stats | probe | gen | bench | monitor }\n"
	       "       " HELP_OPTIONS);
	return BPFWD_EXIT_OK;
}

static const struct cmd objects[] = {
	{ "port", do_port },
	{ "stats", do_stats },
	{ "probe", do_probe },
	{ "gen", do_gen },
	{ "bench", do_bench },
	{ "monitor", do_monitor },
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

static int run_batch(const char *file);

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

int bpfwd_main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "netns", required_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "batch", required_argument, NULL, 'b' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *batch = NULL;
	int c;

	memset(&opts, 0, sizeof(opts));
	json_reset();
	loader_set_print();
	optind = 0;	/* also resets getopt state inside tc */
	opterr = 0;
	/* "+": stop at the object; its arguments are not options.
	 * ":": a missing value is ':', not an "unknown option" '?'
	 */
	while ((c = getopt_long(argc, argv, "+:jpn:vb:Vh", lopts, NULL)) >= 0) {
		switch (c) {
		case 'j':
			opts.json = true;
			break;
		case 'p':
			opts.json = opts.pretty = true;
			break;
		case 'n':
			opts.netns = optarg;
			break;
		case 'v':
			opts.verbose++;
			break;
		case 'b':
			batch = optarg;
			break;
		case 'V':
			printf("bpfwd %s\n", BPFWD_VERSION);
			return BPFWD_EXIT_OK;
		case 'h':
			do_help(0, NULL);
			return BPFWD_EXIT_OK;
		case ':':
			return usage_err("option %s needs a value, try bpfwd help",
					 argv[optind - 1]);
		default:
			if (optopt)
				return usage_err("unknown option -%c, try bpfwd help", optopt);
			return usage_err("unknown option %s, try bpfwd help",
					 argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (batch && argc > 0)
		return usage_err("-b FILE: unexpected \"%s\" (the commands come from FILE)",
				 argv[0]);
	if (opts.netns && enter_netns(opts.netns))
		return BPFWD_EXIT_FAIL;
	if (batch)
		return run_batch(batch);
	return dispatch(argc, argv);
}

/* -b FILE: one command a line ("-" is stdin), '#' comments; stops at the
 * first failure and names the line.
 */
static int run_batch(const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[1024], *args[64];
	int lineno = 0, ret = 0;

	if (!f) {
		p_err("batch %s: %s", file, strerror(errno));
		return BPFWD_EXIT_FAIL;
	}
	while (fgets(line, sizeof(line), f)) {
		int n = 0;
		char *tok, *save;

		lineno++;
		for (tok = strtok_r(line, " \t\n", &save); tok && n < 63;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			if (*tok == '#')
				break;
			args[n++] = tok;
		}
		if (!n)
			continue;
		args[n] = NULL;
		ret = dispatch(n, args);
		if (ret) {
			opts.cmd = NULL;
			p_err("batch %s: line %d failed", file, lineno);
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	return ret;
}
