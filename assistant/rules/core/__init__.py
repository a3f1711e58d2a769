"""The shared machinery of every game of the family: the engine, its phases, the menu, snapshots,
explanations and previews.  No game's card data lives here; nothing here imports a game folder
or the registry."""
