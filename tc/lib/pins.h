/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The bpffs root, the namespace's own pin directory and pinned-map
 * checks.
 *
 *   <root>/tc/globals/bpfwd_*        the table stock tc shares (hook none)
 *   <root>/bpfwd/<netns cookie>/     bpfwd's table and links for one netns
 *
 * Both directories are made by bpfwd (or tc) as root, 0700; one that
 * another user made, or a symlink, is refused: on a bpffs mounted
 * without mode= (1777) any user may create entries at its top.
 *
 * Pins belong to a bpffs mount, not to a network namespace, and ifindex
 * values repeat across namespaces: keying the directory by the netns
 * cookie keeps two namespaces' ports apart.
 */
#ifndef __BPFWD_PINS_H
#define __BPFWD_PINS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/bpf.h>

const char *bpffs_root(void);
int bpffs_ensure(void);			/* mounts the root if needed */
uint64_t netns_cookie(void);
int ns_dir(char *buf, size_t len, bool create);
int stock_dir(char *buf, size_t len, bool create);
int mkdir_p(const char *path, mode_t mode);

/* Takes the lock of the pin directory @dir (flock, exclusive), kept
 * until the process ends; again for a directory it holds, it returns 0
 * at once.  State-changing commands take it on the table they change,
 * so that two of them in one namespace run one after the other.  Lock
 * the namespace's directory before the stock one.  Returns 0, -ESTALE
 * when the directory was removed while waiting (look it up again),
 * -ENOENT, or another -errno.
 */
int pin_dir_lock(const char *dir);
/* Drops every lock pin_dir_lock() took: for the daemon, which changes
 * tables now and then and must not hold them between.
 */
void pin_dir_unlock_all(void);

/* Checks that the map pinned at @path has the given layout.  Returns 0
 * when it matches or nothing is pinned there (*exists tells which),
 * -EEXIST with a message when the layout is different: an error, or
 * with @warn a warning (for readers that can go on without that map).
 */
int pin_check_map(const char *path, enum bpf_map_type type, uint32_t key,
		  uint32_t value, uint32_t max, bool *exists, bool warn);

#endif /* __BPFWD_PINS_H */
