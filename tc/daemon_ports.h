/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The daemon's part for the ports table (`bpfwd port`): ports whose
 * ingress device or target was deleted and made again with the same
 * name forward again.  See daemon_ports.c.
 */
#ifndef __BPFWD_DAEMON_PORTS_H
#define __BPFWD_DAEMON_PORTS_H

#include "lib/brmirror.h"

/* Follows the namespace's ports table along brmirror_run(). */
extern const struct daemon_follower daemon_ports;

#endif /* __BPFWD_DAEMON_PORTS_H */
