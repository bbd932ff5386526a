// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * A small streaming JSON writer behind the print_* calls.  It tracks
 * nesting so that commas and (with -p) indentation come out right.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "opts.h"

#define JSON_DEPTH 16

static int depth;
static bool first[JSON_DEPTH];

void json_reset(void)
{
	depth = 0;
	first[0] = true;
}

static bool to_json(enum output_type t)
{
	return opts.json && (t & PRINT_JSON);
}

static bool to_text(enum output_type t)
{
	return !opts.json && (t & PRINT_FP);
}

static void indent(void)
{
	int i;

	if (!opts.pretty)
		return;
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

/*
 * Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if there is none.
 */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * A JSON string of s.  Names come from the kernel and the command line
 * and need not be UTF-8 (an interface name is any bytes but '/' and
 * blanks): a byte that starts no well-formed sequence is written as
 * U+FFFD, so the output stays valid JSON and valid UTF-8.
 */
static void put_escaped(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	putchar('"');
	while (*p) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p < 0x20 || *p == 0x7f)
			printf("\\u%04x", *p);
		else if ((n = utf8_len(p)) > 0) {
			fwrite(p, 1, n, stdout);
			p += n;
			continue;
		} else
			fputs("\\ufffd", stdout);
		p++;
	}
	putchar('"');
}

static void key_prefix(const char *key)
{
	if (!first[depth])
		putchar(',');
	first[depth] = false;
	if (depth)
		indent();
	if (key) {
		put_escaped(key);
		putchar(':');
		if (opts.pretty)
			putchar(' ');
	}
}

static void open_any(const char *key, char c)
{
	if (!opts.json)
		return;
	key_prefix(key);
	putchar(c);
	if (depth < JSON_DEPTH - 1)
		depth++;
	first[depth] = true;
}

static void close_any(char c)
{
	if (!opts.json)
		return;
	if (depth > 0)
		depth--;
	if (!first[depth + 1])
		indent();
	putchar(c);
}

void json_begin(void)
{
	json_reset();
}

void json_end(void)
{
	if (opts.json)
		putchar('\n');
	fflush(stdout);
}

void open_json_object(const char *key)
{
	open_any(key, '{');
}

void close_json_object(void)
{
	close_any('}');
}

void open_json_array(const char *key)
{
	open_any(key, '[');
}

void close_json_array(void)
{
	close_any(']');
}

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *v)
{
	if (to_json(t)) {
		key_prefix(key);
		if (v)
			put_escaped(v);
		else
			fputs("null", stdout);
	} else if (to_text(t) && fmt) {
		printf(fmt, v ? v : "");
	}
}

void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t v)
{
	if (to_json(t)) {
		key_prefix(key);
		printf("%llu", (unsigned long long)v);
	} else if (to_text(t) && fmt) {
		printf(fmt, (unsigned long long)v);
	}
}

void print_double(enum output_type t, const char *key, const char *fmt,
		  double v)
{
	if (to_json(t)) {
		key_prefix(key);
		if (v != v)
			fputs("null", stdout);
		else
			printf("%.6g", v);
	} else if (to_text(t) && fmt) {
		printf(fmt, v);
	}
}

void print_bool(enum output_type t, const char *key, const char *fmt,
		bool v)
{
	if (to_json(t)) {
		key_prefix(key);
		fputs(v ? "true" : "false", stdout);
	} else if (to_text(t) && fmt) {
		printf(fmt, v ? "yes" : "no");
	}
}

void print_null(enum output_type t, const char *key, const char *fmt)
{
	if (to_json(t)) {
		key_prefix(key);
		fputs("null", stdout);
	} else if (to_text(t) && fmt) {
		fputs(fmt, stdout);
	}
}

void print_nl(void)
{
	if (!opts.json)
		putchar('\n');
}

/* Errors in JSON mode: one object on stdout, {"error": ..., "command": ...}.
 * Printed outside any document being written (callers print errors before
 * they start output).
 */
void json_error(const char *msg, const char *cmd)
{
	fflush(stdout);
	fputs("{\"error\":", stdout);
	put_escaped(msg);
	if (cmd) {
		fputs(",\"command\":", stdout);
		put_escaped(cmd);
	}
	fputs("}\n", stdout);
	fflush(stdout);
}
