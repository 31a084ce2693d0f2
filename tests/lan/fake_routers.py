"""Fake routers standing in for miniupnpc.UPnP inside the UPnP worker process (p2pdurak.net.upnp_worker PORT
tests.lan.fake_routers:NAME). Each writes what it was asked to the file named by $FAKE_IGD_LOG, one JSON line a
call, so a test sees the router's side after the worker has gone. No packet is sent."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass


@dataclass
class FakeIgd:
    routers: int = 1
    external: str = "203.0.113.7"
    accept: bool = True
    fail: bool = False
    permanent_only: bool = False
    stall: float = 0.0  # seconds discover() takes (a router that never answers)
    slow_add: float = 0.0  # seconds addportmapping takes before the router maps the port
    slow_answer: float = 0.0  # seconds addportmapping takes to answer once the router has mapped the port
    greedy: int = 0  # bytes the description "needs" (miniupnpc reads a whole reply into memory)
    discoverdelay: int = 0
    lanaddr: str = "192.168.1.20"
    nobody_answers: bool = False  # as miniupnpc when no device answered: discover() raises Exception("Success")

    def _log(self, *call: object) -> None:
        with open(os.environ["FAKE_IGD_LOG"], "a") as f:
            f.write(json.dumps(call) + "\n")

    def discover(self) -> int:
        self._log("discover", self.discoverdelay)
        time.sleep(self.stall)
        if self.nobody_answers:
            raise Exception("Success")
        return self.routers

    def selectigd(self) -> str:
        if self.greedy:
            self._log("description", len(bytearray(self.greedy)))
        return "http://192.168.1.1:5000/ctl/IPConn"

    def externalipaddress(self) -> str:
        return self.external

    def addportmapping(self, eport: int, proto: str, ihost: str, iport: int, desc: str, rhost: str,
                       lease: int = 0, /) -> bool:
        if self.fail:
            raise Exception("ConflictInMappingEntry")
        if self.permanent_only and lease:
            raise Exception("OnlyPermanentLeasesSupported")
        time.sleep(self.slow_add)
        if self.accept:
            self._log("add", eport, proto, ihost, iport, desc, lease)
        time.sleep(self.slow_answer)
        return self.accept

    def deleteportmapping(self, eport: int, proto: str) -> bool:
        self._log("delete", eport, proto)
        return True


def good() -> FakeIgd:
    return FakeIgd()


def permanent_only() -> FakeIgd:
    return FakeIgd(permanent_only=True)


def public() -> FakeIgd:
    return FakeIgd(external="8.8.4.4")


def no_router() -> FakeIgd:
    return FakeIgd(routers=0)


def nobody_answers() -> FakeIgd:
    return FakeIgd(nobody_answers=True)


def no_external() -> FakeIgd:
    return FakeIgd(external="")


def loopback_external() -> FakeIgd:
    return FakeIgd(external="127.0.0.1")


def refuses() -> FakeIgd:
    return FakeIgd(accept=False)


def fails() -> FakeIgd:
    return FakeIgd(fail=True)


def silent() -> FakeIgd:
    return FakeIgd(stall=60)


def slow_to_map() -> FakeIgd:
    return FakeIgd(slow_add=1.0)


def slow_to_answer() -> FakeIgd:
    return FakeIgd(slow_answer=1.0)


def greedy() -> FakeIgd:
    return FakeIgd(greedy=2**30)
