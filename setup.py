"""Build glue for what pyproject.toml cannot say: ship top-level ``resources/`` inside the
installed package as ``fightdesk.resources`` (every other setting is in pyproject.toml)."""

from setuptools import find_packages, setup

code = find_packages(include=["fightdesk", "fightdesk.*"])
resources = [
    "fightdesk." + name for name in find_packages(include=["resources", "resources.*"])
]
setup(packages=[*code, *resources])
