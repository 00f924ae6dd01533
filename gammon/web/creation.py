"""A new table's settings from a creation request (``POST /api/tables``, and the tables
quick pairing makes), checked field by field: seats from the server's menu, options from
the variant's table options (an allow-list with ranges), numbers in range, and the
rotations' own rules (a match, no options)."""

from __future__ import annotations

from typing import Any

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import variant as get_variant
from gammon.stakes.match import Rotation, rotation
from gammon.stakes.rules import StakeRules
from gammon.table.clock import time_control
from gammon.web.config import ServerConfig

#: What a table may be asked for at creation.
CREATE_FIELDS = {"variant", "options", "seats", "kind", "length", "stake", "games",
                 "crawford", "cube", "jacoby", "beaver", "rated", "clock"}


def table_settings(body: dict[str, object], config: ServerConfig) -> dict[str, Any]:
    """The :class:`~gammon.table.Table` settings of a creation request, checked field by
    field: seats from the server's menu, options from the variant's table options
    (``rules.table_options``: an allow-list with ranges), numbers in range."""
    unknown = set(body) - CREATE_FIELDS
    if unknown:
        raise InvalidOptionError(f"unknown fields {sorted(str(u)[:20] for u in unknown)[:5]}; "
                                 f"a table takes {sorted(CREATE_FIELDS)}")
    name = body.get("variant")
    seats = body.get("seats")
    if not isinstance(name, str) or len(name) > 40:
        raise InvalidOptionError("variant is a name, such as backgammon")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidOptionError("options is an object of the variant's options")
    limits = config.limits
    if len(options) > limits.options:
        raise InvalidOptionError(f"at most {limits.options} options")
    for key, value in options.items():
        if not isinstance(value, bool | int | float | str) or (
                isinstance(value, str) and len(value) > limits.option_chars) or (
                isinstance(value, int | float) and abs(value) > 1_000_000):
            raise InvalidOptionError(f"option {str(key)[:30]!r} is a yes/no, a number or a "
                                     f"short word, not {str(value)[:30]!r}")
    games_in_turn = rotation(name)
    if games_in_turn is not None:
        return _rotation_settings(games_in_turn, body, options, config)
    offered = get_variant(name).table_options
    for key, value in options.items():
        if key not in offered:
            allowed = ", ".join(f"{o} ({low} to {high})" for o, (low, high) in offered.items())
            raise InvalidOptionError(
                f"option {str(key)[:30]!r} is not one a table of {name} sets; "
                + (f"its options: {allowed}" if offered else "it has none to set"))
        low, high = offered[key]
        _whole(value, key, low, high)
    rules = get_variant(name, **options)
    if not isinstance(seats, list) or len(seats) > 8:
        raise InvalidOptionError("seats is a list such as [\"human\", \"best\"]")
    kind = body.get("kind", "game")
    if kind not in ("game", "match", "money"):
        raise InvalidOptionError("kind is game, match or money")
    settings: dict[str, Any] = {"variant": name, "options": options, "kind": kind,
                                "seats": [config.seat(rules, seat) for seat in seats]}
    if kind == "match":
        _match_settings(settings, body)
    if kind == "money":
        settings["stake"] = _whole(body.get("stake", 1), "stake", 1, 10_000)
        if body.get("games") is not None:
            settings["games"] = _whole(body["games"], "games", 1, 1000)
    settings["rated"] = yes_no(body.get("rated", False), "rated")
    settings["clock"] = time_control(body.get("clock"))
    if kind in ("match", "money"):
        settings["stakes"] = StakeRules(
            cube=yes_no(body.get("cube", True), "cube"),
            jacoby=yes_no(body.get("jacoby", False), "jacoby") and kind == "money",
            beaver=yes_no(body.get("beaver", False), "beaver") and kind == "money")
    return settings


def _match_settings(settings: dict[str, object], body: dict[str, object]) -> None:
    settings["length"] = _whole(body.get("length", 5), "length", 1, 25)
    settings["crawford"] = yes_no(body.get("crawford", True), "crawford")


def _rotation_settings(games_in_turn: Rotation, body: dict[str, object],
                       options: dict[str, object], config: ServerConfig) -> dict[str, Any]:
    """The settings of a table of several variants in turn (tavli): a match, no options,
    no cube unless its games have one, seats from the levels they share."""
    name = games_in_turn.name
    games_in_turn.check(str(body.get("kind", "match"))[:20], options)
    seats = body.get("seats")
    if not isinstance(seats, list) or len(seats) != 2:
        raise InvalidOptionError("seats is a list of two, such as [\"human\", \"best\"]")
    variants = games_in_turn.rules()
    settings: dict[str, Any] = {"variant": name, "options": {}, "kind": "match",
                                "seats": [config.seat(variants, seat) for seat in seats]}
    _match_settings(settings, body)
    settings["rated"] = yes_no(body.get("rated", False), "rated")
    settings["clock"] = time_control(body.get("clock"))
    return settings


def _whole(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidOptionError(f"{what} is a whole number from {low} to {high}, not "
                                 f"{str(value)[:20]!r}")
    return value


def yes_no(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{what} is true or false, not {str(value)[:20]!r}")
    return value


__all__ = ["CREATE_FIELDS", "table_settings", "yes_no"]
