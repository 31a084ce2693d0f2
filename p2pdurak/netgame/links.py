"""How a seat's connections run, as the front ends' `Links` value: the host's view (each seat's connection to it)
and a joined seat's view (its connection to the host and its mesh link to each other seat)."""

from __future__ import annotations

from p2pdurak.net.client import Client
from p2pdurak.net.host import HostServer
from p2pdurak.netgame.frontend import Links, SeatLink


def host_links(server: HostServer) -> Links:
    """Every seat connected to the host now (the host's own seat left out), with the name it gave."""
    names = server.seat_names()
    return Links(tuple(SeatLink(seat, path, names.get(seat, ""))
                       for seat, path in sorted(server.paths().items()) if seat))


def seat_links(client: Client) -> Links:
    """A joined seat's live connections: to the host (seat 0) while connected, and each mesh link that is up."""
    links = [SeatLink(0, client.path)] if client.connected else []
    if client.mesh is not None:
        links += [SeatLink(seat, path) for seat, path in sorted(client.mesh.paths.items()) if seat]
    return Links(tuple(links))
