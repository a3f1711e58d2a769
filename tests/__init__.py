"""The test suite (a package, so ``tests.project_games`` is this folder even if some installed
distribution ships a stray top-level ``tests`` package)."""
