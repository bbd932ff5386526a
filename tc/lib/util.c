// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Logging, one-line errors (text or JSON), argument helpers and the
 * dispatch used by every object.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "json.h"

void bpfwd_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > opts.verbose)
		return;
	va_start(ap, fmt);
	fputs("bpfwd: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* "bpfwd: port add eth9: no such device"; @sep goes between the
 * command and the message (" ", or ": " for a word of the command
 * itself: "bpfwd: port: unknown command").
 */
static void vp_err(const char *sep, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (opts.json)		/* the command is a key of its own there */
		json_error(msg, opts.cmd);
	else if (opts.cmd)
		fprintf(stderr, "bpfwd: %s%s%s\n", opts.cmd, sep, msg);
	else
		fprintf(stderr, "bpfwd: %s\n", msg);
}

void p_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vp_err(" ", fmt, ap);
	va_end(ap);
}

int usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vp_err(" ", fmt, ap);
	va_end(ap);
	return BPFWD_EXIT_USAGE;
}

int need_root(void)
{
	if (geteuid() == 0)
		return 0;
	p_err("must be run as root (needs CAP_NET_ADMIN and CAP_BPF)");
	return -EPERM;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

void signals_catch(struct signals_saved *s, bool alarm)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	stop_signal = 0;
	s->alarm = alarm;
	sigaction(SIGINT, &sa, &s->old[0]);
	sigaction(SIGTERM, &sa, &s->old[1]);
	if (alarm)
		sigaction(SIGALRM, &sa, &s->old[2]);
}

void signals_restore(const struct signals_saved *s)
{
	sigaction(SIGINT, &s->old[0], NULL);
	sigaction(SIGTERM, &s->old[1], NULL);
	if (s->alarm)
		sigaction(SIGALRM, &s->old[2], NULL);
}

bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && len <= strlen(word) && !strncmp(arg, word, len);
}

bool is_word(const char *arg, const char *word)
{
	return !strcmp(arg, word);
}

int parse_u32(const char *s, uint32_t *v, uint32_t min, uint32_t max)
{
	unsigned long long x;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	if (x < min || x > max)
		return -ERANGE;
	*v = x;
	return 0;
}

int arg_u32(const char *key, const char *arg, uint32_t *v, uint32_t min,
	    uint32_t max)
{
	int err = parse_u32(arg, v, min, max);

	if (err == -ERANGE)
		return usage_err("%s \"%s\": out of range (%u-%u)", key, arg,
				 min, max);
	if (err)
		return usage_err("%s \"%s\": not a number", key, arg);
	return 0;
}

int kw_interval(const struct kw *k, const char *arg, void *dst)
{
	(void)k;
	if (parse_u32(arg, dst, 1, 3600))
		return usage_err("interval \"%s\": a whole number of seconds, 1-3600",
				 arg);
	return 0;
}

int kw_count(const struct kw *k, const char *arg, void *dst)
{
	if (parse_u32(arg, dst, 1, k->max))
		return usage_err("count \"%s\": a number from 1", arg);
	return 0;
}

/* usage_err() about the command word itself */
static int __attribute__((format(printf, 1, 2)))
cmd_usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vp_err(": ", fmt, ap);
	va_end(ap);
	return BPFWD_EXIT_USAGE;
}

int cmd_select(const struct cmd *cmds, int argc, char **argv,
	       const char *what, int (*help)(int argc, char **argv))
{
	const struct cmd *hit = NULL;
	int i;

	if (argc < 1)
		return help(argc, argv);
	if (is_word(argv[0], "help") || is_word(argv[0], "-h") ||
	    is_word(argv[0], "--help"))
		return help(argc - 1, argv + 1) == BPFWD_EXIT_USAGE ?
			BPFWD_EXIT_USAGE : BPFWD_EXIT_OK;
	for (i = 0; cmds[i].name; i++) {
		if (is_word(argv[0], cmds[i].name)) {
			hit = &cmds[i];
			break;
		}
		if (matches(argv[0], cmds[i].name)) {
			if (hit)
				return cmd_usage_err("ambiguous %s \"%s\" (%s or %s?)",
						     what, argv[0], hit->name,
						     cmds[i].name);
			hit = &cmds[i];
		}
	}
	if (!hit)
		return cmd_usage_err("unknown %s \"%s\", try \"help\"", what,
				     argv[0]);
	return hit->fn(argc - 1, argv + 1);
}

int ifname_check(const char *name)
{
	if (!*name || strlen(name) >= IF_NAMESIZE)
		return -ENAMETOOLONG;
	if (strchr(name, '/') || strchr(name, ' ') || strchr(name, ':'))
		return -EINVAL;
	return 0;
}

/* Resolves @name (role says which side, for the message); prints the
 * error itself and returns -errno.
 */
int ifindex_of(const char *name, const char *role)
{
	unsigned int idx;
	int err = ifname_check(name);

	if (err == -ENAMETOOLONG) {
		p_err("%s: name too long for an interface (at most %d characters)",
		      name, IF_NAMESIZE - 1);
		return err;
	}
	if (err) {
		p_err("%s: not a valid interface name", name);
		return err;
	}
	idx = if_nametoindex(name);
	if (!idx) {
		err = errno == ENODEV || errno == ENXIO ? -ENODEV : -errno;
		if (err == -ENODEV)
			p_err("%s: no such device%s%s", name, role ? " " : "",
			      role ? role : "");
		else
			p_err("%s: %s", name, strerror(-err));
		return err;
	}
	return idx;
}

int resolve_pair(const char *dev, const char *to, int *in, int *out)
{
	*in = ifindex_of(dev, NULL);
	if (*in < 0)
		return *in;
	*out = 0;
	if (!to)
		return 0;
	*out = ifindex_of(to, NULL);
	if (*out < 0)
		return *out;
	if (*in == *out) {
		p_err("%s: dev and to are the same device", dev);
		return -EINVAL;
	}
	return 0;
}

const char *ifname_of(uint32_t ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}
