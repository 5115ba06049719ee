"""A list of callbacks told about changes: the engine's and the library's notices."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Listeners(Generic[T]):
    """Subscribers to one kind of notice, told in the order they subscribed."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[T], None]] = []

    def subscribe(self, callback: Callable[[T], None]) -> None:
        self._callbacks.append(callback)

    def unsubscribe(self, callback: Callable[[T], None]) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def notify(self, notice: T) -> None:
        # A copy: a callback may unsubscribe itself while being told.
        for callback in list(self._callbacks):
            callback(notice)

    def clear(self) -> None:
        self._callbacks.clear()
