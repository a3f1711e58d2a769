"""A game's log read as one timeline (``timeline.py``): the walk of its rows (``walk.py``), corrections
(``corrections.py``), the words of what happened meanwhile (``meanwhile.py``) and the states saved
on the way (``saved.py``)."""
