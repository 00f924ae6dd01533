"""One module per variant; importing this package registers them all."""

from gammon.variants import backgammon

__all__ = ["backgammon"]
