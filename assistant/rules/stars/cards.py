"""The cards of Rolling Stock Stars (``cards.json`` beside this file, the one source of their figures)."""

from ..core.cards import load

CARDS = load(__package__)
