"""The addresses a phone on the same network can use to reach this server."""

from __future__ import annotations

import ipaddress

import ifaddr


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's network interfaces, loopback and link-local left out."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6 entries are tuples; phones are given the IPv4 address
            address = ipaddress.ip_address(ip.ip)
            if address.is_loopback or address.is_link_local:
                continue
            if ip.ip not in found:
                found.append(ip.ip)
    return found


def urls(host: str, port: int) -> list[str]:
    """URLs to print at start-up: this machine first, then each LAN address when listening on all."""
    if host not in ("0.0.0.0", ""):
        return [f"http://{host}:{port}/"]
    return [f"http://localhost:{port}/"] + [
        f"http://{a}:{port}/  (phones on the same network)" for a in lan_addresses()
    ]
