"""The private LANs of the discovery tests: two or three namespaces on one bridge, skipped (saying why) where
namespaces cannot be made."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.lan.netns import Lan, private_lan, skip_reason


def _lan(count: int) -> Iterator[Lan]:
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
    with private_lan(count) as lan:
        yield lan


@pytest.fixture
def lan2() -> Iterator[Lan]:
    yield from _lan(2)


@pytest.fixture
def lan3() -> Iterator[Lan]:
    yield from _lan(3)
