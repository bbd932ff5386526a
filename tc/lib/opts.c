// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The global options (see opts.h).
 */
#include "opts.h"

struct bpfwd_opts opts;
