#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Plays a scripted frame set through a bridge and records what every host
# receives, for the bridge tests (tests/netns/bridge.t): one process opens
# an AF_PACKET socket in each host namespace (sending and capturing on its
# eth0), runs the script, and writes one file per host with the frames it
# received, in order, one hex line each (frames the script did not send,
# like the IGMP reports of the bridge device, are left out).
#
#   bridge_frames.py --host h1=NS1 ... --mac NAME=MAC ... --out DIR SCRIPT
#
# Script lines ('#' comments):
#   send HOST DST SRC [TYPE [COUNT [SIZE]]]
#                                      DST/SRC: a MAC or a --mac NAME;
#                                      TYPE: hex ethertype (default 0800);
#                                      0800 and 86dd carry a valid IPv4 /
#                                      IPv6 header, 0800bad one with a bad
#                                      checksum, 8100:VID an IPv4 packet
#                                      tagged with VID (TPID:VID[:PCP],
#                                      tags stacked outer first with '+':
#                                      88a8:100+8100:10; VID 0 with a PCP is
#                                      priority-tagged); SIZE: bytes of
#                                      payload (default: just the marker)
#   stations HOST COUNT                COUNT broadcast frames, each from its
#                                      own source 02:10:00:00:XX:XX
#   sh CMD...                          a shell command (bash -c)
#   sleep SECONDS
# Every frame carries "bpfwd <line> <n>" so that each one is distinct.
import ctypes
import os
import socket
import subprocess
import sys
import time

CLONE_NEWNET = 0x40000000
ETH_P_ALL = 3
PACKET_OUTGOING = 4

libc = ctypes.CDLL(None, use_errno=True)


def setns(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), "setns " + path)
    finally:
        os.close(fd)


SOL_PACKET = 263
PACKET_AUXDATA = 8
TP_STATUS_VLAN_VALID = 1 << 4
TP_STATUS_VLAN_TPID_VALID = 1 << 6


def open_sock(ns, ifname):
    home = "/proc/self/ns/net"
    keep = os.open(home, os.O_RDONLY)
    try:
        setns("/run/netns/" + ns)
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                          socket.htons(ETH_P_ALL))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        # the VLAN tag a device took out of the frame, to put it back
        s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
        s.bind((ifname, 0))
    finally:
        libc.setns(keep, CLONE_NEWNET)
        os.close(keep)
    s.setblocking(False)
    return s


def mac(word, macs):
    word = macs.get(word, word)
    b = bytes(int(x, 16) for x in word.split(":"))
    if len(b) != 6:
        raise ValueError("bad MAC " + word)
    return b


def csum(b):
    s = sum(int.from_bytes(b[i:i + 2], "big") for i in range(0, len(b), 2))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def l3(etype, payload, src, dst):
    """the ethertype and what follows it"""
    if etype in ("0800", "0800bad"):
        h = bytearray(20)
        h[0], h[8], h[9] = 0x45, 64, 253       # experimental protocol
        h[2:4] = (20 + len(payload)).to_bytes(2, "big")
        h[12:16] = bytes([192, 0, 2, src[5]])
        h[16:20] = bytes([192, 0, 2, dst[5]])
        h[10:12] = csum(bytes(h)).to_bytes(2, "big")
        if etype == "0800bad":
            h[11] ^= 0xff
        return bytes.fromhex("0800") + bytes(h) + payload
    if ":" in etype:                # tagged: TPID:VID[:PCP][+...], then IPv4
        out = b""
        for tag in etype.split("+"):
            w = tag.split(":")
            tci = int(w[1]) | (int(w[2]) << 13 if len(w) > 2 else 0)
            out += bytes.fromhex(w[0]) + tci.to_bytes(2, "big")
        return out + l3("0800", payload, src, dst)
    if etype == "86dd":
        h = bytearray(40)
        h[0], h[6], h[7] = 0x60, 59, 64        # no next header
        h[4:6] = len(payload).to_bytes(2, "big")
        h[8:24] = bytes.fromhex("fe80" + "00" * 13) + bytes([src[5]])
        h[24:40] = bytes.fromhex("fe80" + "00" * 13) + bytes([dst[5]])
        return bytes.fromhex("86dd") + bytes(h) + payload
    return bytes.fromhex(etype) + payload


def with_tag(data, anc):
    """the frame as on the wire: an offloaded VLAN tag put back"""
    for level, kind, aux in anc:
        if level != SOL_PACKET or kind != PACKET_AUXDATA or len(aux) < 20:
            continue
        status = int.from_bytes(aux[0:4], "little")
        tci = int.from_bytes(aux[16:18], "little")
        tpid = int.from_bytes(aux[18:20], "little")
        if status & TP_STATUS_VLAN_VALID:
            if not status & TP_STATUS_VLAN_TPID_VALID:
                tpid = 0x8100
            tag = tpid.to_bytes(2, "big") + tci.to_bytes(2, "big")
            return data[:12] + tag + data[12:]
    return data


def drain(socks, got):
    for name, s in socks.items():
        while True:
            try:
                data, anc, _, addr = s.recvmsg(65535, 256)
            except BlockingIOError:
                break
            data = with_tag(data, anc)
            # only the script's frames: not what the bridge device or a
            # host's stack sends of its own accord (IGMP reports)
            if addr[2] == PACKET_OUTGOING or b"bpfwd " not in data:
                continue
            got[name].append(data.hex())


def main():
    args = sys.argv[1:]
    hosts, macs, out, script = {}, {}, None, None
    while args:
        a = args.pop(0)
        if a == "--host":
            k, v = args.pop(0).split("=", 1)
            hosts[k] = v
        elif a == "--mac":
            k, v = args.pop(0).split("=", 1)
            macs[k] = v
        elif a == "--out":
            out = args.pop(0)
        else:
            script = a
    socks = {h: open_sock(ns, "eth0") for h, ns in hosts.items()}
    got = {h: [] for h in hosts}
    time.sleep(0.1)
    drain(socks, {h: [] for h in hosts})
    for lineno, line in enumerate(open(script), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        w = line.split()
        if w[0] == "send":
            host, dst, src = w[1], mac(w[2], macs), mac(w[3], macs)
            etype = w[4] if len(w) > 4 else "0800"
            size = int(w[6]) if len(w) > 6 else 0
            for n in range(int(w[5]) if len(w) > 5 else 1):
                payload = ("bpfwd %d %d" % (lineno, n)).encode()
                payload += bytes(max(0, size - len(payload)))
                frame = dst + src + l3(etype, payload, src, dst)
                frame += bytes(max(0, 60 - len(frame)))
                socks[host].send(frame)
            time.sleep(0.02)
        elif w[0] == "stations":
            for n in range(int(w[2])):
                src = bytes([2, 0x10, 0, 0, n >> 8, n & 0xff])
                frame = b"\xff" * 6 + src + bytes.fromhex("0806")
                frame += ("bpfwd %d %d" % (lineno, n)).encode()
                socks[w[1]].send(frame + bytes(max(0, 60 - len(frame))))
                if n % 256 == 255:
                    time.sleep(0.01)
                    drain(socks, got)
        elif w[0] == "sh":
            # a step the kernel refuses (a VLAN-aware bridge has no
            # entries without VLAN) is said, and the script goes on
            if subprocess.run(["bash", "-c", line[3:]]).returncode:
                print("%s:%d: failed: %s" % (script, lineno, line[3:]),
                      file=sys.stderr)
        elif w[0] == "sleep":
            time.sleep(float(w[1]))
        else:
            sys.exit("%s:%d: unknown step %s" % (script, lineno, w[0]))
        drain(socks, got)
    time.sleep(0.3)
    drain(socks, got)
    for h, frames in got.items():
        with open(os.path.join(out, h), "w") as f:
            f.write("".join(x + "\n" for x in frames))


if __name__ == "__main__":
    main()
