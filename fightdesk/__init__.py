"""fightdesk: a desktop combat manager for game masters."""

__version__ = "0.1.0"
