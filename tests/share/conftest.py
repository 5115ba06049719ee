"""The shown main window of the UI tests, for the share's window tests."""

from tests.ui.conftest import window

__all__ = ["window"]
