"""The options of the stakes layer, and which variants have a doubling cube.

:class:`StakeRules` is to the stakes what a variant's rules object is to the game: one
frozen, validated value holding every option (the cube, its limit and progression,
beavers and raccoons, the Jacoby rule, automatic doubles, "no mars with the cube",
whether resignations are listed among the legal actions). docs/rules/stakes.md states
what each option does.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules

GEOMETRIC = "geometric"
ARITHMETIC = "arithmetic"
PROGRESSIONS = (GEOMETRIC, ARITHMETIC)

#: The faces of the physical cube go up to 64.
DEFAULT_MAX_CUBE = 64


@dataclass(frozen=True)
class StakeRules:
    """What the cube and the scoring around it allow (see docs/rules/stakes.md).

    - ``cube``: the doubling cube is in play (**CUBE-OFFER** and the rules after it);
      ``None`` means the variant's default (:func:`cube_default`).
    - ``max_cube``: the highest value the cube may reach (**CUBE-MAX**).
    - ``progression``: ``"geometric"`` (1, 2, 4, 8, ...) or ``"arithmetic"``
      (1, 2, 3, 4, ...) (**CUBE-ARITHMETIC**).
    - ``beaver`` / ``raccoon``: the doubled player may beaver, and then the doubler may
      raccoon (money play only) (**CUBE-BEAVER**, **CUBE-RACCOON**).
    - ``jacoby``: gammons and backgammons count single while the cube is centred
      (money play only) (**CUBE-JACOBY**).
    - ``auto_doubles``: how many equal opening throws double the cube automatically
      (money play only; 0 = none) (**CUBE-AUTO**).
    - ``no_mars_with_cube``: with the cube in play every win counts single
      (**CUBE-NO-MARS**); ``None`` means the variant's default (:meth:`no_mars_for`:
      on for short backgammon and the Caucasian game, whose source says so).
    - ``list_resignations``: list the resignation offers among ``legal_actions()``
      (they are always accepted by ``apply``) (**RESIGN-OFFER**).
    """

    cube: bool | None = None
    max_cube: int = DEFAULT_MAX_CUBE
    progression: str = GEOMETRIC
    beaver: bool = False
    raccoon: bool = False
    jacoby: bool = False
    auto_doubles: int = 0
    no_mars_with_cube: bool | None = None
    list_resignations: bool = False

    def __post_init__(self) -> None:
        for name in ("beaver", "raccoon", "jacoby", "list_resignations"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionError(f"stake option {name} is true or false, "
                                         f"not {getattr(self, name)!r}")
        for name in ("cube", "no_mars_with_cube"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, bool):
                raise InvalidOptionError(
                    f"stake option {name} is true, false or None, not {value!r}"
                )
        if self.progression not in PROGRESSIONS:
            raise InvalidOptionError(
                f"the stake progression is 'geometric' (1, 2, 4, 8...) or 'arithmetic' "
                f"(1, 2, 3, 4...), not {self.progression!r}"
            )
        if not isinstance(self.max_cube, int) or isinstance(self.max_cube, bool) \
                or self.max_cube < 1:
            raise InvalidOptionError(
                f"the cube limit max_cube is a whole number of at least 1, not {self.max_cube!r}"
            )
        if not isinstance(self.auto_doubles, int) or isinstance(self.auto_doubles, bool) \
                or self.auto_doubles < 0:
            raise InvalidOptionError(
                f"auto_doubles is how many automatic doubles a game may have (0 or more), "
                f"not {self.auto_doubles!r}"
            )
        if self.raccoon and not self.beaver:
            raise InvalidOptionError("a raccoon answers a beaver: raccoon needs beaver on")

    def options(self) -> dict[str, Any]:
        """The options this value was built with."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def replace(self, **changes: Any) -> StakeRules:
        return dataclasses.replace(self, **changes)

    def next_value(self, value: int) -> int:
        """The cube value one step above ``value``: doubled, or one more (arithmetic)."""
        return value * 2 if self.progression == GEOMETRIC else value + 1

    def cube_for(self, variant: Rules) -> bool:
        """Whether the cube is in play for ``variant`` with these options."""
        if self.cube is None:
            return cube_default(variant)
        if self.cube and variant.players != 2:
            raise InvalidOptionError(
                f"the doubling cube is for two players; {variant.name} has {variant.players}"
            )
        return self.cube

    def no_mars_for(self, variant: Any) -> bool:
        """Whether, with the cube in play, every win of ``variant`` counts single: the
        option when set, else the variant's own default (its ending's ``no_mars_with_cube``)."""
        if self.no_mars_with_cube is None:
            return variant.ending.no_mars_with_cube
        return self.no_mars_with_cube

    def check_match(self, match_length: int) -> None:
        """Raise if an option is for money play only and this is a match."""
        if not match_length:
            return
        money_only = [name for name in ("beaver", "raccoon", "jacoby") if getattr(self, name)]
        if self.auto_doubles:
            money_only.append("auto_doubles")
        if money_only:
            raise InvalidOptionError(
                f"{', '.join(money_only)} {'is' if len(money_only) == 1 else 'are'} for money "
                f"play only; a {match_length}-point match has none"
            )


def cube_default(variant: Rules) -> bool:
    """Whether ``variant`` is played with the cube unless told otherwise: what the
    variant says (``cube``), for two players only."""
    return variant.cube and variant.players == 2
