"""Errors a caller can act on. All are ``ValueError`` subclasses."""

from __future__ import annotations


class GammonError(ValueError):
    """Base class of every error gammon raises on bad input."""


class InvalidNotationError(GammonError):
    """A position ID, match ID, XGID or move text could not be read."""


class IllegalPlayError(GammonError):
    """An action that is not legal in the state it was applied to."""


class InvalidOptionError(GammonError):
    """A variant name or option that does not exist or has a bad value."""
