"""Ports for the servers the Python suites start (`commission serve`), below the ephemeral range.

A port found by binding port 0 and given back for the server to bind may be handed out again
before the server binds it: to Chromium's or chromedriver's own connections, or to another
server. The kernel hands out no port below its ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range) that way, so these come from there: a different one each
in a run (in turn, from a start that differs between processes), checked free by binding it. The
Swift suites take theirs the same way (ServerSocketPort in Tests/CommissionKitTests).
"""

import os
import socket

_LOW = 10_000
_next = None


def _first_ephemeral():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port():
    """A port on 127.0.0.1 that nothing holds now, never one the kernel hands out by itself."""
    global _next
    span = _first_ephemeral() - _LOW
    if span < 1000:
        raise RuntimeError("the system hands out ports from %d (/proc/sys/net/ipv4/ip_local_port_range): "
                           "leave 11,000 and up to servers, as Linux does by default (32768)" % (_LOW + span))
    if _next is None:
        _next = _LOW + os.getpid() % span
    for _ in range(span):
        port = _next
        _next = _LOW + (port - _LOW + 1) % span
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port on 127.0.0.1 below %d" % (_LOW + span))
