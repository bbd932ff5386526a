// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd apply [ FILE ] [ prune ]: makes this namespace's ports what a
 * file in batch syntax says (`port add dev a0 to a1 hook tcx`, one port
 * a line), for a box that must come back the same after a reboot
 * (bpffs is in RAM): a port the file names and that is missing is
 * added, one that differs is replaced, one that is what the file says
 * (program included) is left alone, so that a second apply changes
 * nothing; with prune, ports the file does not name are deleted.
 *
 * The whole file is read and checked first (words, duplicates): a
 * usage error changes nothing.  Then the ports go in file order, each
 * as one port command (atomic per port); the first that fails stops
 * the run, names its line, and leaves the ports before it applied and
 * the rest as they were (no prune).
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "objects.h"
#include "port.h"
#include "lib/batch.h"
#include "lib/json.h"
#include "lib/ports.h"
#include "lib/util.h"

#define APPLY_DEFAULT_FILE	"/etc/bpfwd/bpfwd.conf"

struct apply_line {
	int line;
	char **words;		/* a copy: the batch buffer is reused */
	int n;
	struct port_cfg c;
	uint32_t ifindex;
	bool done;		/* applied: @did says how */
	enum port_did did;
};

struct apply {
	const char *file;
	bool prune;
	struct apply_line *l;
	int n;
	uint32_t pruned[BPFWD_MAX_PORTS * 2];	/* ifindexes deleted */
	char pruned_name[BPFWD_MAX_PORTS * 2][IF_NAMESIZE];
	int npruned;
};

int apply_help(int argc, char **argv)
{
	printf("Usage: bpfwd apply [ FILE ] [ prune ]\n"
	       "FILE: port add (or replace) lines in batch syntax, default %s\n",
	       APPLY_DEFAULT_FILE);
	return BPFWD_EXIT_OK;
}

/* Messages of a line's port name the file and the line first:
 * "bpfwd: apply FILE: line N: ...".
 */
static void at_line(const struct apply *a, int line)
{
	static char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "apply %s: line %d:", a->file, line);
	opts.cmd = cmd;
}

static int line_err(const struct apply *a, int line, const char *why)
{
	at_line(a, line);
	p_err("%s", why);
	return BPFWD_EXIT_USAGE;
}

/* Keeps the words of one line: "port add|replace PORT_SPEC". */
static int keep_line(struct apply *a, const struct batch *b, int n)
{
	struct apply_line *l, *nl;
	int i;

	if (n < 2 || !is_word(b->args[0], "port") ||
	    (!is_word(b->args[1], "add") && !is_word(b->args[1], "replace")))
		return line_err(a, b->first,
				"apply takes port add and port replace lines only");
	nl = realloc(a->l, (a->n + 1) * sizeof(*a->l));
	if (!nl)
		return -ENOMEM;
	a->l = nl;
	l = &a->l[a->n++];
	memset(l, 0, sizeof(*l));
	l->line = b->first;
	l->words = calloc(n + 1, sizeof(char *));
	if (!l->words)
		return -ENOMEM;
	for (i = 2; i < n; i++) {
		l->words[l->n] = strdup(b->args[i]);
		if (!l->words[l->n++])
			return -ENOMEM;
	}
	return 0;
}

/* Reads and parses the whole file: 0, -errno or an exit code. */
static int read_file(struct apply *a)
{
	struct batch *b = calloc(1, sizeof(*b));
	int n, err = 0;

	if (!b)
		return -ENOMEM;
	opts.cmd = NULL;
	if (batch_open(b, "apply", a->file)) {
		free(b);
		return -ENOENT;
	}
	while (!err && (n = batch_read(b)) != 0) {
		if (n > 0)
			n = batch_split(b);
		if (n < 0)
			err = -n;
		else if (n > 0)
			err = keep_line(a, b, n);
	}
	batch_close(b);
	free(b);
	return err;
}

/* The usage checks of every line, and one line per device. */
static int check_lines(struct apply *a)
{
	char why[128];
	int i, j, err;

	for (i = 0; i < a->n; i++) {
		at_line(a, a->l[i].line);
		err = port_spec_parse(a->l[i].n, a->l[i].words, &a->l[i].c);
		if (err)
			return err;
		for (j = 0; j < i; j++) {
			if (strcmp(a->l[j].c.dev, a->l[i].c.dev))
				continue;
			snprintf(why, sizeof(why), "%s is on line %d already",
				 a->l[i].c.dev, a->l[j].line);
			return line_err(a, a->l[i].line, why);
		}
	}
	return 0;
}

static const char *const did_words[] = {
	[PORT_UNCHANGED] = "unchanged",
	[PORT_ADDED] = "added",
	[PORT_REPLACED] = "replaced",
	[PORT_READDED] = "deleted and added",
};

/* One line of the report: "DEV: ACTION" (JSON: an object). */
static void report(const char *dev, uint32_t ifindex, int line,
		   const char *action)
{
	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "%s", dev);
	print_u64(PRINT_JSON, "ifindex", NULL, ifindex);
	if (line)
		print_u64(PRINT_JSON, "line", NULL, line);
	else
		print_null(PRINT_JSON, "line", NULL);
	print_string(PRINT_ANY, "action", ": %s", action);
	print_nl();
	close_json_object();
}

static int apply_ports(struct apply *a)
{
	struct apply_line *l;
	int i, err;

	for (i = 0; i < a->n; i++) {
		l = &a->l[i];
		at_line(a, l->line);
		err = port_apply_cfg(&l->c, &l->did);
		if (err)
			return err;
		l->ifindex = if_nametoindex(l->c.dev);
		l->done = true;
	}
	return 0;
}

/* What was done, one line (a JSON object) per port.  After a failure
 * JSON has only the error object, as every command.
 */
static void report_all(const struct apply *a, int err)
{
	int i;

	if (err && opts.json)
		return;
	json_begin();
	open_json_array(NULL);
	for (i = 0; i < a->n && a->l[i].done; i++)
		report(a->l[i].c.dev, a->l[i].ifindex, a->l[i].line,
		       did_words[a->l[i].did]);
	for (i = 0; i < a->npruned; i++)
		report(a->pruned_name[i], a->pruned[i], 0, "deleted");
	close_json_array();
	json_end();
}

/* prune: the ports of this namespace that no line names. */
struct prune_list {
	const struct apply *a;	/* its ports stay */
	uint32_t idx[BPFWD_MAX_PORTS * 2];
	int n;
};

static int prune_mark(struct table *t, uint32_t ifindex,
		      const struct bpfwd_port *p, void *data)
{
	struct prune_list *pl = data;
	int i;

	for (i = 0; i < pl->a->n; i++)
		if (if_nametoindex(pl->a->l[i].c.dev) == ifindex)
			return 0;
	if (pl->n < (int)ARRAY_SIZE(pl->idx))
		pl->idx[pl->n++] = ifindex;
	return 0;
}

static int prune(struct apply *a)
{
	struct prune_list *pl = calloc(1, sizeof(*pl));
	int i, err = 0;

	if (!pl)
		return -ENOMEM;
	pl->a = a;
	/* collected first: a del opens the table the walk holds */
	err = ports_walk(prune_mark, pl, false);
	for (i = 0; !err && i < pl->n; i++) {
		ifname_of(pl->idx[i], a->pruned_name[a->npruned]);
		opts.cmd = "apply prune:";
		err = port_del_ifindex(pl->idx[i], false);
		if (!err)
			a->pruned[a->npruned++] = pl->idx[i];
	}
	free(pl);
	return err;
}

static void apply_free(struct apply *a)
{
	int i, j;

	for (i = 0; i < a->n; i++) {
		for (j = 0; j < a->l[i].n; j++)
			free(a->l[i].words[j]);
		free(a->l[i].words);
	}
	free(a->l);
}

static int exit_of(int err)
{
	return err < 0 ? BPFWD_EXIT_FAIL : err ? err : BPFWD_EXIT_OK;
}

int do_apply(int argc, char **argv)
{
	static struct apply a;
	bool file_given = false;
	int err;

	memset(&a, 0, sizeof(a));
	a.file = APPLY_DEFAULT_FILE;

	opts.cmd = "apply";
	for (; argc > 0; argc--, argv++) {
		if (is_word(*argv, "help"))
			return apply_help(0, NULL);
		if (is_word(*argv, "prune") && !a.prune)
			a.prune = true;
		else if (!file_given)
			a.file = *argv, file_given = true;
		else
			return usage_err("unknown argument \"%s\"", *argv);
	}
	if (need_root())
		return BPFWD_EXIT_FAIL;
	err = read_file(&a);
	if (!err)
		err = check_lines(&a);
	if (!err) {
		err = apply_ports(&a);
		if (!err && a.prune)
			err = prune(&a);
		report_all(&a, err);
	}
	apply_free(&a);
	return exit_of(err);
}
