/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * What other objects use of `bpfwd bridge`: its per-bridge counters
 * (forwarded, and passed to the bridge by reason), for `bpfwd stats`.
 */
#ifndef __BPFWD_BRIDGE_H
#define __BPFWD_BRIDGE_H

/* Prints the counters of the bridge named @br (NULL: every bridge with a
 * fast path in this namespace), text or JSON: in JSON one array of
 * objects, under the key @key when not NULL (inside a caller's object).
 * Prints nothing and returns 0 when no bridge has a fast path; -errno
 * with a message on failure.
 */
int bridge_stats_show(const char *br, const char *key);

#endif /* __BPFWD_BRIDGE_H */
