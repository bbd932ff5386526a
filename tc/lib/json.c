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

static void put_escaped(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
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
