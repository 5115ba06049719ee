"""The addresses the share may listen on: this machine's own, one per network interface.

The default is the local network's address (a private IPv4 address: 192.168.x.x,
10.x.x.x, 172.16-31.x.x), never every interface at once: ``ALL`` is offered, but the
window asks before it uses it.
"""

from __future__ import annotations

import ipaddress
from typing import NamedTuple

LOOPBACK = "127.0.0.1"
ALL = "0.0.0.0"
DEFAULT_PORT = 8765


class Address(NamedTuple):
    """One address to listen on, with the interface's name for the GM."""

    host: str
    label: str


def addresses() -> list[Address]:
    """This machine's IPv4 addresses, the local network's first, then this computer only
    (loopback), then every interface (``ALL``)."""
    found: list[Address] = []
    try:
        import ifaddr

        adapters = ifaddr.get_adapters()
    except Exception:  # no interface list on this system: loopback and ALL remain
        adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # IPv6 comes as a tuple
                continue
            host = ip.ip
            try:
                parsed = ipaddress.IPv4Address(host)
            except ValueError:
                continue
            if parsed.is_loopback or parsed.is_link_local:
                continue
            name = adapter.nice_name or adapter.name
            where = "local network" if parsed.is_private else "network"
            found.append(Address(host, f"{host} ({where}, {name})"))
    found.sort(key=lambda a: not ipaddress.IPv4Address(a.host).is_private)
    found.append(Address(LOOPBACK, f"{LOOPBACK} (this computer only)"))
    found.append(Address(ALL, f"{ALL} (every network this computer is on)"))
    return found


def default_host(choices: list[Address], remembered: str = "") -> str:
    """The remembered address when it is still this machine's, else the local network's
    (never ``ALL`` unless the GM chose it before)."""
    hosts = [a.host for a in choices]
    if remembered and remembered in hosts:
        return remembered
    return next((a.host for a in choices if a.host not in (ALL, LOOPBACK)), LOOPBACK)
