"""Classic Rolling Stock (the Players Guide's game): card data, its own rules and the game."""

from .game import ClassicGame

__all__ = ["ClassicGame"]
