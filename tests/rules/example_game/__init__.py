"""A fourth game, as small as a game can be: the example of docs/rulesets.md, used only by a test."""
