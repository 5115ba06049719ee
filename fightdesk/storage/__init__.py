"""Session and library files: JSON via pydantic, atomic writes. Never imports Qt."""
