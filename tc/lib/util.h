/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Shared state of one bpfwd invocation (global options), logging, error
 * reporting and the small argument parsing helpers every object uses.
 */
#ifndef __BPFWD_UTIL_H
#define __BPFWD_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>

#include "params.h"

#define BPFWD_EXIT_OK		0
#define BPFWD_EXIT_FAIL		1
#define BPFWD_EXIT_USAGE	2

#include "opts.h"

enum { LOG_WARN, LOG_INFO, LOG_DEBUG };

void bpfwd_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define pr_warn(...)	bpfwd_log(LOG_WARN, __VA_ARGS__)
#define pr_info(...)	bpfwd_log(LOG_INFO, __VA_ARGS__)
#define pr_debug(...)	bpfwd_log(LOG_DEBUG, __VA_ARGS__)

/* One line on stderr: "bpfwd: <cmd> <fmt...>", or a JSON error object in
 * JSON mode.  The caller does not add a newline.
 */
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 0 when running as root, else prints the one message bpfwd gives for
 * it and returns -EPERM.
 */
int need_root(void);

/* Seconds on CLOCK_MONOTONIC. */
double now(void);

/* Long-running commands (gen, bench, monitor, daemon) stop on SIGINT
 * and SIGTERM (and SIGALRM with @alarm): signals_catch() points them at
 * a handler that stores the signal's number in stop_signal (0 until
 * one comes), signals_restore() puts back what was there (tc -b runs
 * several commands in one process).
 */
extern volatile sig_atomic_t stop_signal;
struct signals_saved {
	struct sigaction old[3];
	bool alarm;
};
void signals_catch(struct signals_saved *s, bool alarm);
void signals_restore(const struct signals_saved *s);

/* Usage error: prints the message and returns BPFWD_EXIT_USAGE. */
int usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Argument walking, iproute2 style. */
bool matches(const char *arg, const char *word);	/* arg is a prefix */
bool is_word(const char *arg, const char *word);	/* exact */
int parse_u32(const char *s, uint32_t *v, uint32_t min, uint32_t max);
/* parse_u32() for a keyword's value: on bad input prints 'KEY "ARG": out
 * of range (MIN-MAX)' or 'not a number' and returns BPFWD_EXIT_USAGE.
 */
int arg_u32(const char *key, const char *arg, uint32_t *v, uint32_t min,
	    uint32_t max);
/* The keywords of a report made every S seconds, N times (stats,
 * monitor), as entries of a keyword table (params.h): "interval S"
 * (whole seconds, 1-3600) and "count N" (1-@hi) into uint32_t fields,
 * with the messages bpfwd always gave for them.
 */
int kw_interval(const struct kw *k, const char *arg, void *dst);
int kw_count(const struct kw *k, const char *arg, void *dst);
#define KW_INTERVAL(T, field, h) \
	{ .name = "interval", .type = KW_T_FN, \
	  .off = offsetof(T, field), .parse = kw_interval, .meta = "S", \
	  .help = h }
#define KW_COUNT(T, field, hi, h) \
	{ .name = "count", .type = KW_T_FN, \
	  .off = offsetof(T, field), .parse = kw_count, .max = hi, \
	  .meta = "N", .help = h }

/* In a parse loop over (argc, argv): step to a keyword's value, or
 * return the usage error that it has none.
 */
#define NEXT_ARG()							\
	do {								\
		if (argc < 2)						\
			return usage_err("\"%s\" needs a value", *argv); \
		argc--;							\
		argv++;							\
	} while (0)

/* Command dispatch with prefix matching; ambiguous prefixes rejected. */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
};
int cmd_select(const struct cmd *cmds, int argc, char **argv,
	       const char *what, int (*help)(int argc, char **argv));

/* Interface names: resolved in the current netns, checked for length. */
int ifname_check(const char *name);
int ifindex_of(const char *name, const char *role);
/* A port's two ends: IN, and OUT unless @to is NULL (then *out = 0);
 * prints the error (unknown device, IN == OUT) and returns -errno.
 */
int resolve_pair(const char *dev, const char *to, int *in, int *out);
const char *ifname_of(uint32_t ifindex, char *buf);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Rate of a counter read @cur now and @prev @secs ago.  One that went
 * back was reset in between (its port deleted and added again): what it
 * counted since, not a wrapped-around difference.
 */
static inline double counter_rate(uint64_t cur, uint64_t prev, double secs)
{
	return (cur >= prev ? cur - prev : cur) / secs;
}

#endif /* __BPFWD_UTIL_H */
