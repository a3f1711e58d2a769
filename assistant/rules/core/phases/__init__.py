"""The rules of each kind of phase, one file each (named by the kind in ``Game.PHASES``), as mixins of ``Game``."""
