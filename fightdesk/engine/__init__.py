"""The rules engine: pure Python, never imports Qt."""
