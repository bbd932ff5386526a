// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The keyword table parser (tc/lib/params.c) on its own: a table with
 * every kind of keyword, parsed from argument lists good and bad.  Each
 * case checks the return code, where the values went and the one line
 * of the error message; then the usage lines made from the table.
 *
 *   test_params         (tests/unit/test_params.t runs it)
 *
 * Output is TAP.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/params.h"
#include "lib/util.h"

static int n_tests, n_failed;

static void report(bool pass, const char *name, const char *got,
		   const char *want)
{
	n_tests++;
	n_failed += !pass;
	printf("%sok %d - %s\n", pass ? "" : "not ", n_tests, name);
	if (!pass)
		printf("# got '%s', expected '%s'\n", got, want);
}

static bool same_str(const char *name, const char *got, const char *want)
{
	bool pass = got && want ? !strcmp(got, want) : got == want;

	report(pass, name, got ? got : "(null)", want ? want : "(null)");
	return pass;
}

static bool same_u(const char *name, unsigned long long got,
		   unsigned long long want)
{
	char g[32], w[32];

	snprintf(g, sizeof(g), "%llu", got);
	snprintf(w, sizeof(w), "%llu", want);
	report(got == want, name, g, w);
	return got == want;
}

struct list {
	const char *v[4];
	int n;
};

struct cfg {
	const char *dev;
	uint32_t prio;
	bool force;
	uint32_t mode;
	struct list via;
	const char *secret;
};

static int parse_via(const struct kw *k, const char *arg, void *dst)
{
	struct list *l = dst;

	if (l->n == 4)
		return usage_err("%s: at most 4", k->name);
	l->v[l->n++] = arg;
	return 0;
}

static const char *const modes[] = { "slow", NULL, "fast" };

static const struct kw tab[] = {
	KW_DEV("dev", struct cfg, dev, "IN", KW_REQUIRED, "the device"),
	KW_U32("prio", struct cfg, prio, 1, 0xffff, "N", 0, "priority"),
	KW_FLAG("force", struct cfg, force, 0, "do it anyway"),
	KW_ENUM("mode", struct cfg, mode, modes, NULL, "MODE", 0, "how"),
	KW_FN("via", struct cfg, via, parse_via, "ADDR", KW_MULTI, "hops"),
	KW_STR("secret", struct cfg, secret, "S", KW_HIDDEN, "not shown"),
	KW_END
};

/* The messages usage_err() prints go to stderr: kept in a file. */
static FILE *errs;
static int saved_stderr;

static void capture(void)
{
	fflush(stderr);
	rewind(errs);
	if (ftruncate(fileno(errs), 0))
		abort();
	saved_stderr = dup(2);
	dup2(fileno(errs), 2);
}

/* The captured text, last newline dropped. */
static const char *captured(void)
{
	static char buf[1024];
	size_t n;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	rewind(errs);
	n = fread(buf, 1, sizeof(buf) - 1, errs);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* parse NAME RC MSG WORDS...: kw_parse() of the words into *c */
static void parse(const char *name, struct cfg *c, kw_seen_t *seen, int rc,
		  const char *msg, const char *words)
{
	static char buf[256];	/* the values point into it */
	char *argv[16], *save, *w;
	char what[128];
	int argc = 0, got;

	snprintf(buf, sizeof(buf), "%s", words);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	memset(c, 0, sizeof(*c));
	c->prio = 7;	/* a default the parser must keep */
	capture();
	got = kw_parse(tab, argc, argv, c, seen);
	snprintf(what, sizeof(what), "%s: exit %d", name, rc);
	same_u(what, got, rc);
	snprintf(what, sizeof(what), "%s: message", name);
	same_str(what, captured(), msg);
}

static void test_parse(void)
{
	kw_seen_t seen = 0;
	struct cfg c;

	parse("all kinds", &c, &seen, 0, "",
	      "dev d0 prio 3 force mode fast via a via b secret s");
	same_str("dev", c.dev, "d0");
	same_u("prio", c.prio, 3);
	same_u("force", c.force, true);
	same_u("mode: the index of the word", c.mode, 2);
	same_u("via: KW_MULTI takes each value", c.via.n, 2);
	same_str("via: the second value", c.via.v[1], "b");
	same_str("hidden keywords parse", c.secret, "s");
	same_u("kw_has(prio)", kw_has(tab, seen, "prio"), true);

	parse("defaults", &c, &seen, 0, "", "dev d0");
	same_u("prio keeps its default", c.prio, 7);
	same_u("kw_has(prio) when absent", kw_has(tab, seen, "prio"), false);
	same_u("kw_has(dev)", kw_has(tab, seen, "dev"), true);

	parse("required", &c, NULL, 2, "bpfwd: missing \"dev IN\"", "prio 3");
	parse("duplicate", &c, NULL, 2,
	      "bpfwd: duplicate \"dev\": \"d1\" is the second value",
	      "dev d0 dev d1");
	parse("duplicate flag", &c, NULL, 2, "bpfwd: duplicate \"force\"",
	      "dev d0 force force");
	parse("range low", &c, NULL, 2,
	      "bpfwd: prio \"0\": out of range (1-65535)", "dev d0 prio 0");
	parse("range high", &c, NULL, 2,
	      "bpfwd: prio \"65536\": out of range (1-65535)",
	      "dev d0 prio 65536");
	parse("not a number", &c, NULL, 2, "bpfwd: prio \"3x\": not a number",
	      "dev d0 prio 3x");
	parse("missing value", &c, NULL, 2, "bpfwd: \"prio\" needs a value",
	      "dev d0 prio");
	parse("enum: unknown word", &c, NULL, 2, "bpfwd: unknown mode \"frob\"",
	      "dev d0 mode frob");
	parse("enum: no word at a hole", &c, NULL, 2,
	      "bpfwd: unknown mode \"(null)\"", "dev d0 mode (null)");
	parse("KW_MULTI: its own limit", &c, NULL, 2, "bpfwd: via: at most 4",
	      "dev d0 via a via b via c via d via e");
	parse("unknown argument", &c, NULL, 2,
	      "bpfwd: unknown argument \"frob\"", "dev d0 frob");
	parse("keywords are whole words", &c, NULL, 2,
	      "bpfwd: unknown argument \"pri\"", "dev d0 pri 3");
}

static void test_parse_some(void)
{
	char *words[] = { "prio", "4", "dev", "d0", "rest", "prio", "5" };
	char **argv = words;
	int argc = 7, rc;
	struct cfg c = { 0 };

	rc = kw_parse_some(tab, &argc, &argv, &c, NULL);
	same_u("kw_parse_some: 0", rc, 0);
	same_u("kw_parse_some: stops at the first other word", argc, 3);
	same_str("kw_parse_some: left on it", argv[0], "rest");
}

static const char *usage_of(void (*fn)(FILE *, const struct kw *, int),
			    const struct kw *t, int indent)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	f = open_memstream(&buf, &len);
	fn(f, t, indent);
	fclose(f);
	return buf;
}

static void test_usage(void)
{
	static const struct kw many[] = {
		KW_DEV("dev", struct cfg, dev, "IN", KW_REQUIRED, NULL),
		KW_U32("priority", struct cfg, prio, 1, 9, "NUMBER", 0, NULL),
		KW_U32("another", struct cfg, prio, 1, 9, "NUMBER", 0, NULL),
		KW_U32("yetanother", struct cfg, prio, 1, 9, "NUMBER", 0, NULL),
		KW_U32("andmore", struct cfg, prio, 1, 9, "NUMBER", 0, NULL),
		KW_ENUM("how", struct cfg, mode, modes, NULL, "MODE", 0, NULL),
		KW_END
	};

	same_str("kw_usage: required bare, others in brackets, hidden left out",
		 usage_of(kw_usage, tab, 0),
		 "dev IN [ prio N ] [ force ] [ mode MODE ] [ via ADDR ]\n");
	same_str("kw_usage: folded at 78 columns, indented",
		 usage_of(kw_usage, many, 20),
		 "dev IN [ priority NUMBER ] [ another NUMBER ]\n"
		 "                    [ yetanother NUMBER ] [ andmore NUMBER ] [ how MODE ]\n");
	same_str("kw_usage_enums: each META once, holes left out",
		 usage_of(kw_usage_enums, many, 2),
		 "  MODE := { slow | fast }\n");
}

static void test_help(void)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	kw_help(f, tab);
	fclose(f);
	same_str("kw_help: a line a keyword, hidden left out", buf,
		 "  dev IN                 the device\n"
		 "  prio N                 priority\n"
		 "  force                  do it anyway\n"
		 "  mode MODE              how\n"
		 "  via ADDR               hops\n");
	free(buf);
}

int main(void)
{
	errs = tmpfile();
	if (!errs) {
		printf("1..0 # SKIP no temporary file\n");
		return 0;
	}
	test_parse();
	test_parse_some();
	test_usage();
	test_help();
	printf("1..%d\n", n_tests);
	return n_failed ? 1 : 0;
}
