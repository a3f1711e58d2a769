"""The test suite (a package, so that ``tests.*`` is this directory even when an installed
distribution ships a top-level ``tests`` package of its own)."""
