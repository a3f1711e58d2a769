"""Tests of the rules engine (assistant/rules): one file per feature."""
