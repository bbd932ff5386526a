#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Frames for tests/netns/route.t, on AF_PACKET sockets (no address
# leaves the test's namespaces):
#
#   route_frames.py suite IFACE DSTMAC FAM     the scripted frames
#   route_frames.py flows IFACE DSTMAC DST N [SRC]   one UDP datagram
#                                              from each of N source ports
#   route_frames.py echo IFACE DSTMAC DST N    N echo requests (fixed
#                                              bytes, unlike ping's)
#   route_frames.py stream IFACE DSTMAC DST SECONDS   UDP, 2000/s at most
#   route_frames.py capture IFACE FILE         what arrives, normalised,
#                                              one line a frame, until
#                                              SIGTERM
#
# The suite sends every frame from fixed bytes (IP ids, payloads), so
# the same frames arrive through the kernel's forwarding and through the
# fast path.  capture checks every checksum (IPv4 header, UDP, ICMP,
# ICMPv6) and writes each frame as "summary hex", with what differs
# between runs for reasons that are not the router's masked: the IPv4
# id and header checksum (after checking it), the IPv6 flow label.
# Multicast frames and neighbour discovery / MLD are left out.

import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 3
PACKET_OUTGOING = 4


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def mac(s):
    return bytes(int(x, 16) for x in s.split(':'))


def ip4(s):
    return socket.inet_pton(socket.AF_INET, s)


def ip6(s):
    return socket.inet_pton(socket.AF_INET6, s)


def if_mac(iface):
    # /sys may show another namespace: ask the socket
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    addr = s.getsockname()[4]
    s.close()
    return addr


def ipv4(src, dst, proto, payload, ttl=64, ident=0x1000, df=True,
         frag=0, mf=False, options=b'', tos=0, bad_csum=False):
    ihl = 5 + len(options) // 4
    flags = (0x4000 if df else 0) | (0x2000 if mf else 0) | frag
    h = struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, tos,
                    ihl * 4 + len(payload), ident, flags, ttl, proto, 0,
                    ip4(src), ip4(dst)) + options
    c = csum(h) ^ (0x5555 if bad_csum else 0)
    return h[:10] + struct.pack('!H', c) + h[12:] + payload


def udp4(src, dst, sport, dport, data):
    u = struct.pack('!HHHH', sport, dport, 8 + len(data), 0) + data
    ph = ip4(src) + ip4(dst) + struct.pack('!BBH', 0, 17, len(u))
    return u[:6] + struct.pack('!H', csum(ph + u) or 0xffff) + u[8:]


def icmp4_echo(ident, seq, data):
    m = struct.pack('!BBHHH', 8, 0, 0, ident, seq) + data
    return m[:2] + struct.pack('!H', csum(m)) + m[4:]


def ipv6(src, dst, nh, payload, hlim=64):
    return struct.pack('!IHBB16s16s', 0x60000000, len(payload), nh, hlim,
                       ip6(src), ip6(dst)) + payload


def l4_6(src, dst, proto, msg, cs_off):
    ph = ip6(src) + ip6(dst) + struct.pack('!I3xB', len(msg), proto)
    c = csum(ph + msg) or (0xffff if proto == 17 else 0)
    return msg[:cs_off] + struct.pack('!H', c) + msg[cs_off + 2:]


def udp6(src, dst, sport, dport, data):
    u = struct.pack('!HHHH', sport, dport, 8 + len(data), 0) + data
    return l4_6(src, dst, 17, u, 6)


def icmp6_echo(src, dst, ident, seq, data):
    m = struct.pack('!BBHHH', 128, 0, 0, ident, seq) + data
    return l4_6(src, dst, 58, m, 2)


def eth(dst, src, etype, payload):
    return dst + src + struct.pack('!H', etype) + payload


def data(n, seed):
    return bytes((seed + i) & 0xff for i in range(n))


def suite4(dst, src):
    """(name, frame) of the IPv4 script; names tell the expected fate."""
    H1, H2 = '10.1.0.1', '10.2.0.2'
    f = []

    def u(name, d, size, s=H1, **kw):
        ident = 0x1000 + len(f)
        pl = udp4(s, d, 40000 + len(f), 9, data(size, len(f)))
        f.append((name, eth(dst, src, 0x0800,
                            ipv4(s, d, 17, pl, ident=ident, **kw))))

    for size in (18, 100, 512, 1000, 1330):
        u('fwd', H2, size)
    u('frag_needed', H2, 1450, df=False)  # no DF: r fragments it
    u('fwd', H2, 20, ttl=2)              # arrives with TTL 1
    u('ttl', H2, 100, ttl=1)             # time exceeded from r
    u('frag_needed', H2, 1400)           # > r1's MTU 1400, DF
    # the kernel answers routing errors (ip_error()) at most once a
    # second per source, whatever the ICMP sysctls: one source each
    u('unreachable', '198.51.100.1', 64, s='10.1.0.11')
    u('prohibit', '198.51.101.1', 64, s='10.1.0.12')
    u('blackhole', '198.51.102.1', 64)
    u('not_fwded', '10.2.0.254', 64)     # the router's own address
    u('not_fwded', '203.0.113.1', 64, s='10.1.0.13')    # no route
    u('options', H2, 64, options=bytes([7, 7, 4, 0, 0, 0, 0, 0]))
    u('bad_header', H2, 64, bad_csum=True)
    # two fragments of one datagram
    pl = udp4(H1, H2, 40100, 9, data(72, 7))
    f.append(('fragment', eth(dst, src, 0x0800,
              ipv4(H1, H2, 17, pl[:40], ident=0x2000, df=False, mf=True))))
    f.append(('fragment', eth(dst, src, 0x0800,
              ipv4(H1, H2, 17, pl[40:], ident=0x2000, df=False, frag=5))))
    # a 28-byte packet padded to 60 bytes: the kernel trims the padding
    pkt = ipv4(H1, H2, 17, udp4(H1, H2, 40200, 9, b''), ident=0x2001)
    f.append(('fwd', eth(dst, src, 0x0800, pkt + bytes(60 - 14 - len(pkt)))))
    for seq in range(3):
        f.append(('fwd', eth(dst, src, 0x0800,
                  ipv4(H1, H2, 1, icmp4_echo(0x4242, seq, data(56, seq)),
                       ident=0x3000 + seq))))
    # not for the router: another MAC, and a broadcast
    pl = udp4(H1, H2, 40300, 9, data(20, 1))
    f.append(('not_host', eth(mac('02:00:00:00:00:99'), src, 0x0800,
              ipv4(H1, H2, 17, pl, ident=0x2002))))
    f.append(('multicast', eth(b'\xff' * 6, src, 0x0800,
              ipv4(H1, H2, 17, pl, ident=0x2003))))
    return f


def suite6(dst, src):
    H1, H2 = 'fd01::1', 'fd02::2'
    f = []

    def u(name, d, size, s=H1, **kw):
        pl = udp6(s, d, 40000 + len(f), 9, data(size, len(f)))
        f.append((name, eth(dst, src, 0x86dd, ipv6(s, d, 17, pl, **kw))))

    for size in (18, 100, 512, 1000, 1300):
        u('fwd', H2, size)
    u('fwd', H2, 20, hlim=2)
    u('ttl', H2, 100, hlim=1)
    u('frag_needed', H2, 1400)          # > r1's MTU 1400: packet too big
    u('unreachable', '2001:db8:1::1', 64)
    u('prohibit', '2001:db8:2::1', 64)
    u('blackhole', '2001:db8:3::1', 64)
    u('not_fwded', 'fd02::fe', 64)
    u('martian', H2, 64, s='fe80::1')
    # a destination options header (PadN) before UDP
    pl = udp6(H1, H2, 40100, 9, data(32, 3))
    f.append(('options', eth(dst, src, 0x86dd,
              ipv6(H1, H2, 60, bytes([17, 0, 1, 4, 0, 0, 0, 0]) + pl))))
    # a fragment header (one fragment, offset 0, M clear)
    f.append(('fragment', eth(dst, src, 0x86dd,
              ipv6(H1, H2, 44, struct.pack('!BBHI', 17, 0, 0, 0x1234) + pl))))
    for seq in range(3):
        f.append(('fwd', eth(dst, src, 0x86dd,
                  ipv6(H1, H2, 58,
                       icmp6_echo(H1, H2, 0x4242, seq, data(56, seq))))))
    return f


def send(iface, frames, gap=0.005):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    for _, fr in frames:
        s.send(fr)
        time.sleep(gap)
    s.close()


def flows(iface, dst, daddr, n, sport0=20000, saddr=None, echo=False):
    src = if_mac(iface)
    six = ':' in daddr
    saddr = saddr or ('fd01::1' if six else '10.1.0.1')
    fr = []
    for i in range(n):
        if six and echo:
            pl = icmp6_echo(saddr, daddr, 0x4343, i, data(56, i))
        elif six:
            pl = udp6(saddr, daddr, sport0 + i, 9, data(32, i))
        elif echo:
            pl = icmp4_echo(0x4343, i, data(56, i))
        else:
            pl = udp4(saddr, daddr, sport0 + i, 9, data(32, i))
        if six:
            fr.append(('', eth(dst, src, 0x86dd,
                               ipv6(saddr, daddr, 58 if echo else 17, pl))))
        else:
            fr.append(('', eth(dst, src, 0x0800,
                               ipv4(saddr, daddr, 1 if echo else 17, pl,
                                    ident=0x5000 + i))))
    return fr


def summary(fr):
    et = struct.unpack('!H', fr[12:14])[0]
    if et == 0x0800:
        ihl = (fr[14] & 0xf) * 4
        ttl, proto = fr[22], fr[23]
        src = socket.inet_ntop(socket.AF_INET, fr[26:30])
        dst = socket.inet_ntop(socket.AF_INET, fr[30:34])
        l4 = fr[14 + ihl:]
        extra = ''
        if proto in (6, 17) and len(l4) >= 4:
            extra = ' %d>%d' % struct.unpack('!HH', l4[:4])
        elif proto == 1 and len(l4) >= 2:
            extra = ' icmp %d/%d' % (l4[0], l4[1])
        return 'v4 %s>%s ttl %d p%d%s len %d' % (src, dst, ttl, proto,
                                                extra, len(fr))
    nh, hl = fr[20], fr[21]
    src = socket.inet_ntop(socket.AF_INET6, fr[22:38])
    dst = socket.inet_ntop(socket.AF_INET6, fr[38:54])
    l4 = fr[54:]
    extra = ''
    if nh == 17 and len(l4) >= 4:
        extra = ' %d>%d' % struct.unpack('!HH', l4[:4])
    elif nh == 58 and len(l4) >= 2:
        extra = ' icmp6 %d/%d' % (l4[0], l4[1])
    return 'v6 %s>%s hlim %d nh%d%s len %d' % (src, dst, hl, nh, extra,
                                              len(fr))


def check4(fr):
    """Checksums of an IPv4 frame: a list of what is wrong."""
    bad = []
    ihl = (fr[14] & 0xf) * 4
    if csum(fr[14:14 + ihl]):
        bad.append('BAD-IP-CSUM')
    tot = struct.unpack('!H', fr[16:18])[0]
    fragoff = struct.unpack('!H', fr[20:22])[0] & 0x3fff
    l4 = fr[14 + ihl:14 + tot]
    proto = fr[23]
    if fragoff:
        return bad
    if proto == 17 and len(l4) >= 8 and l4[6:8] != b'\0\0':
        ph = fr[26:34] + struct.pack('!BBH', 0, 17, len(l4))
        if csum(ph + l4):
            bad.append('BAD-UDP-CSUM')
    if proto == 1 and csum(l4):
        bad.append('BAD-ICMP-CSUM')
    return bad


def check6(fr):
    nh = fr[20]
    plen = struct.unpack('!H', fr[18:20])[0]
    l4 = fr[54:54 + plen]
    if nh not in (17, 58):
        return []
    ph = fr[22:54] + struct.pack('!I3xB', len(l4), nh)
    return ['BAD-L4-CSUM'] if csum(ph + l4) else []


def normal(fr):
    """The line of a frame, or None for one the comparison leaves out."""
    if fr[0] & 1:
        return None
    et = struct.unpack('!H', fr[12:14])[0]
    if et == 0x0800:
        bad = check4(fr)
        fr = bytearray(fr)
        fr[18:20] = b'\0\0'
        fr[24:26] = b'\0\0'
    elif et == 0x86dd:
        if fr[20] == 0 or (fr[20] == 58 and 130 <= fr[54] <= 143):
            return None
        bad = check6(fr)
        fr = bytearray(fr)
        fr[15] &= 0xf0
        fr[16:18] = b'\0\0'
    else:
        return None
    return ' '.join([summary(bytes(fr))] + bad + [bytes(fr).hex()])


def capture(iface, path):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_ALL))
    s.bind((iface, 0))
    s.settimeout(0.1)
    out = open(path, 'w', buffering=1)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    open(path + '.ready', 'w').close()
    while True:
        if stop:
            s.setblocking(False)	# what is queued still counts
        try:
            fr, addr = s.recvfrom(65536)
        except (socket.timeout, InterruptedError):
            continue
        except BlockingIOError:
            break
        if addr[2] == PACKET_OUTGOING:
            continue
        line = normal(fr)
        if line:
            out.write(line + '\n')
    out.close()


def stream(iface, dst, daddr, seconds):
    fr = flows(iface, dst, daddr, 1, 30000)[0][1]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    end = time.time() + seconds
    while time.time() < end:
        s.send(fr)
        time.sleep(0.0005)


def main(argv):
    cmd = argv[1]
    if cmd == 'suite':
        iface, dst, fam = argv[2], mac(argv[3]), argv[4]
        fr = (suite4 if fam == '4' else suite6)(dst, if_mac(iface))
        if len(argv) > 5 and argv[5] == 'list':
            for name, _ in fr:
                print(name)
            return
        send(iface, fr)
    elif cmd == 'flows':
        saddr = argv[6] if len(argv) > 6 else None
        send(argv[2], flows(argv[2], mac(argv[3]), argv[4], int(argv[5]),
                            saddr=saddr), 0.001)
    elif cmd == 'echo':
        send(argv[2], flows(argv[2], mac(argv[3]), argv[4], int(argv[5]),
                            echo=True), 0.001)
    elif cmd == 'stream':
        stream(argv[2], mac(argv[3]), argv[4], float(argv[5]))
    elif cmd == 'capture':
        capture(argv[2], argv[3])
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    main(sys.argv)
