"""Errors a caller can act on. All are ``ValueError`` subclasses."""

from __future__ import annotations


class GammonError(ValueError):
    """Base class of every error gammon raises on bad input."""


class InvalidNotationError(GammonError):
    """A position ID, match ID, XGID or move text could not be read."""


class IllegalPlayError(GammonError):
    """An action that is not legal in the state it was applied to."""


class IllegalOutcomeError(GammonError):
    """A chance outcome that cannot happen in the state it was applied to (a die of 0,
    three dice for two, equal opening dice that are thrown again...)."""


class InvalidOptionError(GammonError):
    """A variant name or option that does not exist or has a bad value."""
