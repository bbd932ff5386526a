// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd daemon: the long-running control plane of the bridge fast path,
 * in the foreground, logging to stderr, until SIGTERM or SIGINT.  It
 * runs in one network namespace (bpfwd -n NETNS daemon for another) and
 * keeps every bridge `bpfwd bridge add` configured there; the work is in
 * lib/brmirror.c.  Stopping it marks the bridges out of sync, so the
 * fast path passes every frame to the bridge at once; a daemon killed
 * outright stops the fast path when its heartbeat is three seconds old.
 * Along, it re-attaches the namespace's ports whose devices come back
 * (daemon_ports.c); those stay as they are when it stops.
 */
#include <stdio.h>
#include <string.h>

#include "daemon_ports.h"
#include "objects.h"
#include "lib/brmirror.h"
#include "lib/params.h"
#include "lib/util.h"

static const struct kw daemon_kws[] = { KW_END };

int daemon_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	/* what it does: bpfwd-daemon(8) */
	printf("Usage: bpfwd daemon\n");
	return BPFWD_EXIT_OK;
}

int do_daemon(int argc, char **argv)
{
	struct signals_saved saved;
	int err;

	opts.cmd = "daemon";
	if (argc > 0 && is_word(argv[0], "help"))
		return daemon_help(0, NULL);
	if (kw_parse(daemon_kws, argc, argv, NULL, NULL))
		return BPFWD_EXIT_USAGE;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	/* a long run: keep the log in order with other output */
	setvbuf(stderr, NULL, _IOLBF, 0);
	stop_signal = 0;
	signals_catch(&saved, false);
	err = brmirror_run(&daemon_ports);
	signals_restore(&saved);
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}
