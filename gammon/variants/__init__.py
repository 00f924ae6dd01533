"""One module per variant; importing this package registers them all.

Every module (or package) here is imported, so a new game is its module alone. The
games named in :data:`LISTED` come first, in the order ``gammon variants`` lists them
(the backgammon family first, then the other games); any other module follows, by name.
"""

import importlib
import pkgutil

#: The order in which ``gammon variants`` (and the web's lobby) list the games.
LISTED = ("backgammon", "portes", "plakoto", "tapa", "tavla", "short", "caucasian", "nardy",
          "fevga", "moultezim", "gulbara", "acey", "multigam", "acedrex")

__all__ = [*LISTED, *sorted({module.name for module in pkgutil.iter_modules(__path__)}
                            - set(LISTED))]

for _module in __all__:
    importlib.import_module(f"{__name__}.{_module}")
