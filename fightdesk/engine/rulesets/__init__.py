"""The built-in rulesets; importing this package registers them."""

from .street_fighter import StreetFighter

__all__ = ["StreetFighter"]
