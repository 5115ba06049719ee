"""``python -m fightdesk``: the same as the ``fightdesk`` command."""

import sys

from fightdesk.cli import main

if __name__ == "__main__":
    sys.exit(main())
