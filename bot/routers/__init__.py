"""One Router per feature, each built by `make_router()` (a Router has one parent only)."""
