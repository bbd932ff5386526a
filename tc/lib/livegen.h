/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The traffic generator behind `bpfwd gen` and `bpfwd bench`: one UDP
 * frame template run through gen.o's XDP program with BPF_PROG_RUN in
 * live-frames mode (BPF_F_TEST_XDP_LIVE_FRAMES), which redirects every
 * run's frame out of a device.  AF_PACKET reached 0.3-0.5 Mpps on a
 * small VM, live frames several Mpps.
 */
#ifndef __BPFWD_LIVEGEN_H
#define __BPFWD_LIVEGEN_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <netinet/in.h>

#define LIVEGEN_BATCH		64	/* frames per redirect flush */
#define LIVEGEN_SIZE_DEF	64	/* frame size on the wire, with FCS */
#define LIVEGEN_FLOWS_DEF	8
#define LIVEGEN_SPORT		49152	/* first source port */
#define LIVEGEN_DPORT		9	/* discard */
#define LIVEGEN_CALL		(1U << 21)	/* frames per BPF_PROG_RUN */

struct livegen_cfg {
	uint32_t ifindex;
	const char *dev;		/* for messages */
	uint32_t size;			/* on the wire, including the FCS */
	uint32_t flows;
	/* destination MACs, round robin: dmac, dmac + 1, ... (its last four
	 * bytes counted up; 0 or 1: dmac only)
	 */
	uint32_t stations;
	/* destination addresses, round robin: dst, dst + dst_step, ... (the
	 * address's last 32 bits counted up; 0 or 1: dst only; dst_step 0
	 * is 1), each frame with its checksums right
	 */
	uint32_t dsts, dst_step;
	bool ipv6;
	bool have_smac, have_dmac, have_src, have_dst;
	uint8_t smac[6], dmac[6];
	struct in6_addr src, dst;	/* IPv4: first 4 bytes */
};

struct livegen;

/* Fills in what the user left out (device MAC and address, neighbour
 * MAC), checks the device can take XDP frames (a message says why not
 * and how to fix it) and loads the program.
 */
int livegen_open(struct livegen_cfg *cfg, struct livegen **g);
/* Runs frames until @frames have been run since livegen_open() (0: until
 * *@stop) in long BPF_PROG_RUN calls of LIVEGEN_CALL frames: each call
 * costs two RCU grace periods in the kernel, which under load left the
 * generator idle half the time with short calls.  A signal ends a call
 * early; one that comes between calls is seen through *@stop.  Returns
 * 0, -EINTR when stopped, or -errno.
 */
int livegen_run(struct livegen *g, uint64_t frames,
		const volatile sig_atomic_t *stop);
/* Frames run since livegen_open(), exact also after -EINTR. */
uint64_t livegen_frames(struct livegen *g);
void livegen_close(struct livegen *g);

/* Counters of the device: what it took and what it dropped. */
int livegen_dev_counters(struct livegen *g, uint64_t *tx, uint64_t *drop);
/* After sending, when the device took nothing and dropped all: a message
 * that says why (veth peer without NAPI) and how to fix it.
 */
void livegen_explain_drops(struct livegen *g);

/* Frame length handed to the device (size without FCS). */
uint32_t livegen_frame_len(const struct livegen_cfg *cfg);

#endif /* __BPFWD_LIVEGEN_H */
