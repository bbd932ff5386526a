/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Paths from the environment that root may use.  bpfwd runs as root and
 * takes two paths from variables: BPFWD_BPFFS (where it mounts a bpffs)
 * and TC_LIB_DIR (where probe dlopen()s the tc plugin).  A value that
 * leads through another user's symlink or directory would make root
 * mount over, or run code from, a place that user picks.
 */
#ifndef __BPFWD_TRUST_H
#define __BPFWD_TRUST_H

#include <stdbool.h>
#include <stddef.h>

/* Whether no user but root (or the caller's uid) can change what @path
 * names: every component, and every symlink on the way and the path it
 * resolves to, is owned by root and is not writable by group or others,
 * except a sticky directory (like /tmp: others cannot move root's
 * entries there).  A missing tail is trusted only under a directory
 * nobody else can write (root may create it later).  On false, @why
 * gets the reason ("/tmp/x is owned by uid 1000").
 */
bool path_trusted(const char *path, char *why, size_t len);

/* getenv(@name) when it is set, not empty and path_trusted(); else NULL,
 * with a warning for a value that is not trusted ("NAME=VALUE ignored:
 * WHY").
 */
const char *env_path(const char *name);

#endif /* __BPFWD_TRUST_H */
