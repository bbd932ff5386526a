/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The port table and its counters, as every forwarding object declares
 * them: the same names, types and sizes, pinned by name, so that tc and
 * XDP programs loaded under one pin root share one table.  Only BPF
 * sources include this; bpfwd.h is the layout user space sees.
 */
#ifndef __BPFWD_TABLES_BPF_H
#define __BPFWD_TABLES_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpfwd.h"

#ifndef ETH_ZLEN
#define ETH_ZLEN 60
#endif

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFWD_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct bpfwd_port);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BPFWD_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct bpfwd_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_stats SEC(".maps");

#endif /* __BPFWD_TABLES_BPF_H */
