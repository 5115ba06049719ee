"""The ``street-fighter`` ruleset (seed ``000_db53d128f111ab7b.txt``)."""

from .rules import StreetFighter

__all__ = ["StreetFighter"]
