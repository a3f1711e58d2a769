"""Blueprints of the web app."""
