/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Keyword tables: one table per command names every keyword it takes,
 * the type and range of its value, where the value goes and a line of
 * help.  kw_parse() walks argv with it, kw_usage() prints the grammar
 * from it, so the parser and the help cannot disagree.  The words are
 * iproute2's (dash-less, `dev eth0 prio 3`); a keyword given twice is an
 * error unless the table says it repeats, as iproute2's duparg() does.
 *
 *	struct cfg { const char *dev; uint32_t prio; bool force; };
 *	static const struct kw kws[] = {
 *		KW_DEV("dev", struct cfg, dev, "IN", KW_REQUIRED, "ingress device"),
 *		KW_U32("prio", struct cfg, prio, 1, 0xffff, "N", 0, "filter priority"),
 *		KW_FLAG("force", struct cfg, force, 0, "also another namespace's entry"),
 *		KW_END
 *	};
 *	err = kw_parse(kws, argc, argv, &cfg, &seen);
 *
 * Messages, all usage errors (exit 2), are the ones bpfwd always gave:
 *	unknown argument "frob"        "prio" needs a value
 *	prio "0": out of range (1-65535)        prio "x": not a number
 *	unknown mode "frob"            missing "dev IN"
 *	duplicate "dev": "a1" is the second value
 */
#ifndef __BPFWD_PARAMS_H
#define __BPFWD_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum kw_type {
	KW_T_FLAG,	/* bool; takes no value */
	KW_T_U32,	/* uint32_t in [min, max] */
	KW_T_STR,	/* const char *: the argv word itself */
	KW_T_DEV,	/* const char *: an interface name (resolved later) */
	KW_T_ENUM,	/* uint32_t: index of the word in words[] */
	KW_T_FN,	/* parse(): anything else (lists, addresses) */
};

enum {
	KW_REQUIRED	= 1 << 0,	/* missing "KEY META" when absent */
	KW_MULTI	= 1 << 1,	/* may repeat (KW_T_FN only: parse()
					 * is called for each value) */
	KW_HIDDEN	= 1 << 2,	/* accepted, not in the usage line */
};

struct kw;

/* A KW_T_FN value: stores @arg at @dst, or prints one line (through
 * usage_err()) and returns BPFWD_EXIT_USAGE.
 */
typedef int (*kw_parse_fn)(const struct kw *k, const char *arg, void *dst);

struct kw {
	const char *name;
	enum kw_type type;
	unsigned int flags;
	size_t off;			/* destination in the caller's struct */
	uint32_t min, max;		/* KW_T_U32 */
	const char *const *words;	/* KW_T_ENUM: NULL entries are holes */
	uint32_t nwords;
	const char *what;		/* KW_T_ENUM: "unknown WHAT" (name) */
	kw_parse_fn parse;		/* KW_T_FN */
	const char *meta;		/* the value in the usage: "N", "IN" */
	const char *help;		/* one line, for `help` listings */
};

#define KW_FLAG(n, T, field, fl, h) \
	{ .name = n, .type = KW_T_FLAG, .flags = fl, \
	  .off = offsetof(T, field), .help = h }
#define KW_U32(n, T, field, lo, hi, m, fl, h) \
	{ .name = n, .type = KW_T_U32, .flags = fl, \
	  .off = offsetof(T, field), .min = lo, .max = hi, .meta = m, \
	  .help = h }
#define KW_STR(n, T, field, m, fl, h) \
	{ .name = n, .type = KW_T_STR, .flags = fl, \
	  .off = offsetof(T, field), .meta = m, .help = h }
#define KW_DEV(n, T, field, m, fl, h) \
	{ .name = n, .type = KW_T_DEV, .flags = fl, \
	  .off = offsetof(T, field), .meta = m, .help = h }
/* @w is a static array of names indexed by value; @wh names it in
 * "unknown WHAT" (NULL: the keyword's name)
 */
#define KW_ENUM(n, T, field, w, wh, m, fl, h) \
	{ .name = n, .type = KW_T_ENUM, .flags = fl, \
	  .off = offsetof(T, field), .words = w, \
	  .nwords = sizeof(w) / sizeof((w)[0]), .what = wh, .meta = m, \
	  .help = h }
#define KW_FN(n, T, field, fn, m, fl, h) \
	{ .name = n, .type = KW_T_FN, .flags = fl, \
	  .off = offsetof(T, field), .parse = fn, .meta = m, .help = h }
#define KW_END { 0 }

/* Which keywords of a table were given: bit i for the table's entry i
 * (tables have at most 64 entries).
 */
typedef uint64_t kw_seen_t;

/* Parses all of argv into @cfg.  Prints the usage error and returns
 * BPFWD_EXIT_USAGE, or returns 0 with @seen (may be NULL) filled.
 * Destinations of keywords not given are left as the caller set them
 * (defaults).
 */
int kw_parse(const struct kw *tab, int argc, char **argv, void *cfg,
	     kw_seen_t *seen);
/* kw_parse() that stops at the first word that is not a keyword of
 * @tab, leaving *argc / *argv on it (for a table of a part of a
 * command, followed by another table or positional words).
 */
int kw_parse_some(const struct kw *tab, int *argc, char ***argv, void *cfg,
		  kw_seen_t *seen);

/* Whether keyword @name was given.  @name must be in @tab. */
bool kw_has(const struct kw *tab, kw_seen_t seen, const char *name);
/* The entry of @name in @tab, or NULL. */
const struct kw *kw_find(const struct kw *tab, const char *name);
/* The first keyword of @names (a NULL-terminated list) that was given,
 * or NULL: for "X does not apply to Y" checks.
 */
const char *kw_any(const struct kw *tab, kw_seen_t seen,
		   const char *const *names);

/* The usage of a table as iproute2 writes it, "dev IN [ prio N ]
 * [ force ]", folded at 78 columns; continuation lines are indented by
 * @indent spaces.  Required keywords come bare, the others in brackets;
 * an enum's META is defined by kw_usage_enums().
 */
void kw_usage(FILE *f, const struct kw *tab, int indent);
/* kw_usage() with @tail (not a keyword: "[ TC_ARGS | XDP_ARGS ]") as
 * the last word, folded with the others.
 */
void kw_usage_tail(FILE *f, const struct kw *tab, int indent,
		   const char *tail);
/* "META := { word | word }" for every enum of the table with a META,
 * one line each, each META once (@indent spaces first).
 */
void kw_usage_enums(FILE *f, const struct kw *tab, int indent);
/* The keywords with their help lines, one a line. */
void kw_help(FILE *f, const struct kw *tab);

#endif /* __BPFWD_PARAMS_H */
