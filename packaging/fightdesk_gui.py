"""Entry script of the windowed PyInstaller executable (the ``fightdesk-gui`` of a bundle)."""

import sys

from fightdesk.app import main

if __name__ == "__main__":
    sys.exit(main())
