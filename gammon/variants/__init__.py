"""One module per variant; importing this package registers them all.

The registration order is the order ``gammon variants`` lists them in: the backgammon
family first, then the other games.
"""

from gammon.variants import backgammon  # isort: skip
from gammon.variants import portes, plakoto, tapa, tavla  # isort: skip
from gammon.variants import short, caucasian, nardy, fevga, moultezim, gulbara  # isort: skip
from gammon.variants import acey, multigam, acedrex  # isort: skip

__all__ = [
    "acedrex", "acey", "backgammon", "caucasian", "fevga", "gulbara", "moultezim", "multigam",
    "nardy", "plakoto", "portes", "short", "tapa", "tavla",
]
