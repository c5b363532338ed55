"""The key a client address is counted under by the limits per address
(``app.ops.ratelimits``): ``address_key`` puts an IPv6 client's whole /64 (what one host
usually holds) under one key, and an IPv4-mapped IPv6 address under its IPv4 one."""

from __future__ import annotations

import ipaddress


def address_key(host: str) -> str:
    """The key of a client address: itself for IPv4, its /64 network for IPv6."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)
