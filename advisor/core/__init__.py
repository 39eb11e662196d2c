"""Qt-free core: frozen pydantic models and pure functions (no I/O, no Qt, no platformdirs)."""
