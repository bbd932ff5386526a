// SPDX-License-Identifier: GPL-2.0
/* Copyright (c) bpfwd authors
 *
 * tc programs for the vmtest lane that redirect every packet to one fixed
 * ifindex, VMTEST_TARGET (100). The tests create the target with
 * `ip link add ... index 100`, then delete it or set it down to provoke
 * each tc redirect failure class, with nothing but stock tc to load them
 * and no map to configure. This lets the lane prove the kernel side
 * (tc_redirect_err, drop reasons) even when bpfwd itself is not built.
 *
 * No headers: clang -target bpf cannot see the multiarch asm/ headers on
 * Debian, and the few definitions needed are stable UAPI.
 */

#define VMTEST_TARGET	100
#define SEC(name)	__attribute__((section(name), used))
#define TC_ACT_OK	0
#define TC_ACT_SHOT	2
#define BPF_F_INGRESS	1

struct __sk_buff;

/* Helper numbers from enum bpf_func_id. */
static long (*bpf_clone_redirect)(struct __sk_buff *skb, unsigned int ifindex,
				  unsigned long long flags) = (void *)13;
static long (*bpf_redirect)(unsigned int ifindex,
			    unsigned long long flags) = (void *)23;
static long (*bpf_redirect_neigh)(unsigned int ifindex, void *params,
				  int plen,
				  unsigned long long flags) = (void *)152;
static long (*bpf_redirect_peer)(unsigned int ifindex,
				 unsigned long long flags) = (void *)155;

SEC("vm_redir")
int prog_redir(struct __sk_buff *skb)
{
	return bpf_redirect(VMTEST_TARGET, 0);
}

SEC("vm_redir_ingress")
int prog_redir_ingress(struct __sk_buff *skb)
{
	return bpf_redirect(VMTEST_TARGET, BPF_F_INGRESS);
}

SEC("vm_redir_peer")
int prog_redir_peer(struct __sk_buff *skb)
{
	return bpf_redirect_peer(VMTEST_TARGET, 0);
}

SEC("vm_redir_neigh")
int prog_redir_neigh(struct __sk_buff *skb)
{
	return bpf_redirect_neigh(VMTEST_TARGET, 0, 0, 0);
}

SEC("vm_clone")
int prog_clone(struct __sk_buff *skb)
{
	bpf_clone_redirect(skb, VMTEST_TARGET, 0);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
