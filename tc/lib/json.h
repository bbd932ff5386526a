/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * One print path for text and JSON, after iproute2's json_print: each
 * value is printed by one call that knows its JSON key and its text
 * format.  In JSON mode text-only output is skipped and vice versa.
 */
#ifndef __BPFWD_JSON_H
#define __BPFWD_JSON_H

#include <stdbool.h>
#include <stdint.h>

enum output_type { PRINT_FP = 1, PRINT_JSON = 2, PRINT_ANY = 3 };

void json_begin(void);		/* starts the document (no-op in text) */
void json_end(void);		/* ends it and prints a newline */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *v);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t v);
void print_double(enum output_type t, const char *key, const char *fmt,
		  double v);
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool v);
void print_null(enum output_type t, const char *key, const char *fmt);
void print_nl(void);		/* newline in text mode only */

void json_error(const char *msg, const char *cmd);
void json_reset(void);

#endif /* __BPFWD_JSON_H */
