/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Command files, one command a line, read as iproute2's batch reads
 * them (lib/utils.c getcmdline, makeargs): a '#' word starts a comment,
 * a '\' at the end of a line continues the command on the next one,
 * "..." and '...' quote a word with blanks.  A line too long or with
 * too many words is an error of its own, never split into commands.
 * bpfwd -b FILE runs them; bpfwd apply FILE reconciles ports with them.
 */
#ifndef __BPFWD_BATCH_H
#define __BPFWD_BATCH_H

#include <stdio.h>

#define BATCH_LINE_MAX	4096	/* characters of a command, '\n' included */
#define BATCH_WORDS_MAX	255

struct batch {
	const char *what;	/* "batch", "apply": for messages */
	const char *file;
	FILE *f;
	int lineno;		/* of the last line read */
	int first;		/* of the command's first line */
	char buf[BATCH_LINE_MAX + 1];
	char *args[BATCH_WORDS_MAX + 1];
};

/* Opens @file ("-": stdin); -errno reported as "WHAT FILE: why". */
int batch_open(struct batch *b, const char *what, const char *file);
void batch_close(struct batch *b);
/* Reads one command, its continuation lines joined, into b->buf.
 * Returns 1 when there is one, 0 at the end of the file, or -(exit
 * code) for a line too long (reported as "WHAT FILE: line N: why").
 */
int batch_read(struct batch *b);
/* Splits b->buf into b->args in place; returns the number of words (0:
 * a blank or comment line) or -(exit code), reported.
 */
int batch_split(struct batch *b);

#endif /* __BPFWD_BATCH_H */
