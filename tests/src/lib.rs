//! Integration tests of the A2A workspace live in `tests/`; this library is empty on purpose.
