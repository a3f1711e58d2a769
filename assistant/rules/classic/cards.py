"""The cards of classic Rolling Stock (``cards.json`` beside this file, the one source of their figures)."""

from ..core.cards import load

CARDS = load(__package__)
