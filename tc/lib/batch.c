// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Command files in batch syntax (see batch.h), for -b FILE and apply.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "util.h"

int batch_open(struct batch *b, const char *what, const char *file)
{
	b->what = what;
	b->file = file;
	b->lineno = 0;
	b->first = 0;
	b->f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!b->f) {
		p_err("%s %s: %s", what, file, strerror(errno));
		return -errno;
	}
	return 0;
}

void batch_close(struct batch *b)
{
	if (b->f && b->f != stdin)
		fclose(b->f);
	b->f = NULL;
}

static int batch_err(const struct batch *b, const char *why)
{
	opts.cmd = NULL;
	p_err("%s %s: line %d: %s", b->what, b->file, b->first, why);
	return BPFWD_EXIT_USAGE;
}

/* Skips the rest of a line too long for the buffer. */
static void batch_skip_line(FILE *f)
{
	int c;

	do {
		c = fgetc(f);
	} while (c != EOF && c != '\n');
}

int batch_read(struct batch *b)
{
	size_t len = 0, n;

	b->first = b->lineno + 1;
	while (fgets(b->buf + len, sizeof(b->buf) - len, b->f)) {
		b->lineno++;
		n = len + strlen(b->buf + len);
		if (b->buf[n - 1] != '\n' && n == sizeof(b->buf) - 1) {
			batch_skip_line(b->f);
			return -batch_err(b, "too long (at most 4095 characters)");
		}
		if (b->buf[n - 1] == '\n')
			b->buf[--n] = '\0';
		if (!n || b->buf[n - 1] != '\\')
			return 1;
		len = n - 1;	/* drop the '\' and read on */
		b->buf[len] = '\0';
	}
	return len ? 1 : 0;
}

int batch_split(struct batch *b)
{
	char *p = b->buf, *w;
	int n = 0;

	for (;;) {
		p += strspn(p, " \t");
		if (!*p || *p == '#')
			break;
		if (n == BATCH_WORDS_MAX)
			return -batch_err(b, "too many words (at most 255)");
		if (*p == '"' || *p == '\'') {
			w = p + 1;
			p = strchr(w, *p);
			if (!p)
				return -batch_err(b, "unterminated quoted string");
			*p++ = '\0';
			if (*p && *p != ' ' && *p != '\t')
				return -batch_err(b, "a quoted string must end its word");
		} else {
			w = p;
			p += strcspn(p, " \t");
		}
		if (*p)
			*p++ = '\0';
		b->args[n++] = w;
	}
	b->args[n] = NULL;
	return n;
}

