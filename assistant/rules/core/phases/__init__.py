"""The rules of each phase, as mixins of ``Game``."""
