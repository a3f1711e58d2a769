"""The rules of each kind of phase, one file each (named by the kind in ``Game.PHASES``), each a part of ``Game`` (``core/parts.py``)."""
