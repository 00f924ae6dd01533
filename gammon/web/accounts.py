"""Players of the web tables: accounts, their logins, and their ratings.

A person may play as a guest (a seat link is all they hold) or sign up with a name and a
password. The password is kept only as an Argon2id hash (argon2-cffi, its recommended
parameters); it is never stored, logged or sent back in clear. Signing in gives a login:
a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (over HTTPS a ``__Host-``
cookie: ``Secure``, the whole site's, no other host's to set), of which the server keeps
only the SHA-256, so a copy of the database signs nobody in. A login lasts
:data:`LOGIN_DAYS`; the expired ones are deleted, an account keeps its
:data:`LOGINS_PER_ACCOUNT` newest, and its owner may sign out everywhere at once.

A name is checked by :mod:`gammon.web.names`: it draws every character it holds, in one
script, and no two accounts' names, nor a name and a word the site keeps, look alike.

Ratings are Glicko-2 (:mod:`gammon.table.ratings`), one per account and *pool*: a
variant and a kind of play (``backgammon:game`` for single games,
``backgammon:match3`` for 3-point matches). A rated table between two accounts settles
its result (:func:`settle`) as one rating period of one game, written in the same
transaction as the move that ended it, so it is settled once whichever server process
ends it. A result is rated only when it was played (:data:`PLAYS_TO_RATE` plays each),
between accounts of two addresses, and the pair has not had its :data:`PAIR_RATED_PER_DAY`
rated results of the day; the leaderboard lists an account once it has
:data:`LISTED_AFTER` rated games in the pool (docs/security.md: rating farming).
"""

from __future__ import annotations

import functools
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import and_, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError

from gammon.core.errors import GammonError
from gammon.core.variant import preset_name
from gammon.stakes.match import ROTATIONS
from gammon.table.ratings import Rating, rate
from gammon.web.names import BadName, check, keys, normal
from gammon.web.store import (
    Store,
    logins,
    rating_history,
    ratings,
    results,
    token_hash,
    users,
)

PASSWORD_CHARS = (8, 128)
#: Days a login lasts.
LOGIN_DAYS = 30
#: Logins one account keeps (on as many devices): a new one past them ends the oldest.
LOGINS_PER_ACCOUNT = 20
#: The cookie a login is kept in over plain HTTP (a server on one's own machine), and
#: over HTTPS: a ``__Host-`` cookie, which a browser takes only when it is ``Secure``,
#: for the path ``/`` and no ``Domain``, so no other host (a sibling subdomain, a
#: network on the way over HTTP) can plant or shadow it.
COOKIE = "gammon_login"
SECURE_COOKIE = "__Host-gammon_login"
#: Names nobody may take: words the pages use for seats that are not accounts (and any
#: name that looks like one of them).
RESERVED = {"guest", "player", "spectator", "admin", "gammon", "bot", "human", "server"}
#: The characters a name may end in after a word it may not be (``player2``).
_TAIL = "0123456789_-"
#: Checker plays each player must have made at a table for its result to be rated (as
#: lichess aborts a game its players have not both moved in): a resignation at the first
#: decision, or a seat that never moved and lost on time, rates nothing.
PLAYS_TO_RATE = 3
#: Rated results one pair of accounts may have a day (in all pools together).
PAIR_RATED_PER_DAY = 3
#: Rated games in a pool before an account is on its leaderboard (it is provisional
#: till then, and its rating is shown as such).
LISTED_AFTER = 10
#: The commonest passwords (of the lengths allowed), refused at sign-up.
COMMON_PASSWORDS = frozenset((Path(__file__).parent / "data" / "common-passwords.txt")
                             .read_text().split())


class AccountError(GammonError):
    """A sign-up or sign-in refused: the message says why (and never which of the name
    or the password was wrong); ``status`` is the HTTP status that says so."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def cookie_name(secure: bool) -> str:
    """The name of the login cookie over HTTPS (``secure``) or plain HTTP."""
    return SECURE_COOKIE if secure else COOKIE


def _text(value: object) -> bool:
    """Whether ``value`` is text a database can hold: no NUL, no half of a surrogate
    pair (JSON can send both; PostgreSQL refuses the first, UTF-8 the second)."""
    return isinstance(value, str) and "\x00" not in value and \
        not any("\ud800" <= char <= "\udfff" for char in value)


@dataclass(frozen=True)
class User:
    id: int
    name: str


def pool_of(settings: dict[str, Any]) -> str | None:
    """The rating pool of a table's settings: its variant and kind of play (None for money
    play, which is not rated)."""
    kind = settings.get("kind", "game")
    # A variant's options make another game (hypergammon with one checker or three):
    # the pool is the listed name that plays it, and a game no name lists is not rated.
    name = settings["variant"] if settings["variant"] in ROTATIONS else \
        preset_name(settings["variant"], settings.get("options") or {})
    if name is None:
        return None
    if kind == "game":
        return f"{name}:game"
    if kind == "match":
        return f"{name}:match{settings['length']}"
    return None


@functools.cache
def _dummy_hash() -> str:
    """A hash of no one's password, checked when a sign-in names nobody: signing in as
    nobody costs as much as signing in, so an unknown name is not told apart by the time
    the answer takes. One a process: hashing takes a core for a third of a second."""
    return PasswordHasher().hash(secrets.token_hex(16))


class Accounts:
    """The accounts kept in a :class:`~gammon.web.store.Store`'s database."""

    def __init__(self, store: Store, reserved: set[str] | frozenset[str] = frozenset()) -> None:
        self.store = store
        self.hasher = PasswordHasher()
        # Kept by both keys: a look-alike of a kept word is kept too.
        self.reserved = {key for name in (*RESERVED, *reserved) for key in keys(name)}
        self._dummy = _dummy_hash()

    def check_name(self, name: object) -> str:
        """``name`` NFKC-normalised, as it is kept and shown, or :class:`AccountError`
        saying what is wrong with it and what is allowed."""
        if not isinstance(name, str):
            raise AccountError("a name is 3 to 20 letters and digits of one script, with _ "
                               "or -, beginning with a letter or digit")
        try:
            name = check(name)
        except BadName as error:
            raise AccountError(str(error)) from None
        base = name.rstrip(_TAIL)
        if self.reserved & {*keys(name), *(keys(base) if base else ())}:
            raise AccountError(f"{name!r} is, or looks like, a name kept for the site's own "
                               "use (its bots and seats): choose another name")
        return name

    @staticmethod
    def check_password(password: object, name: str = "") -> str:
        low, high = PASSWORD_CHARS
        if not isinstance(password, str) or not low <= len(password) <= high:
            raise AccountError(f"a password is {low} to {high} characters")
        if not _text(password):
            raise AccountError("a password holds no NUL nor halves of surrogate pairs")
        folded = password.casefold()
        # The name with a few characters about it is as good as no password.
        beside_name = folded.replace(name.casefold(), "") if name else folded
        if folded in COMMON_PASSWORDS or len(set(folded)) < 3 or len(beside_name) < 6:
            raise AccountError("that password is among the first an attacker tries (a "
                               "common one, one character over and over, or your name "
                               "with little else): choose another")
        return password

    def sign_up(self, name: object, password: object, address: str = "",
                per_day: int | None = None) -> User:
        """A new account made from the address hashed as ``address``, which may make
        ``per_day`` of them a day (any number when None)."""
        name = self.check_name(name)
        digest = self.hasher.hash(self.check_password(password, name))
        key, shape = keys(name)
        taken = AccountError(f"the name {name!r} is taken, or looks like one that is: "
                             "choose another", 409)
        now = time.time()
        try:
            with self.store.writer.begin() as db:
                if self.store.postgres:  # sign-ups look for look-alikes one at a time
                    db.execute(text("SELECT pg_advisory_xact_lock(4243)"))
                if per_day is not None and address:
                    made = db.execute(select(func.count()).select_from(users).where(
                        users.c.address == address, users.c.created > now - 86400)
                    ).scalar_one()
                    if made >= per_day:
                        raise AccountError(f"your address has made {made} accounts today, "
                                           "the most it may: sign in to one of them")
                both = (key, shape)
                if db.execute(select(users.c.id).where(
                        or_(users.c.key.in_(both), users.c.shape.in_(both))).limit(1)
                              ).first() is not None:
                    raise taken
                user_id = db.execute(insert(users).values(
                    name=name, key=key, shape=shape, password=digest, created=now,
                    address=address)).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            raise taken from None
        return User(int(user_id), name)

    @staticmethod
    def tries_key(name: object) -> str:
        """What the sign-ins at one account are counted by: its key, so that no spelling
        of its name (its case, a look-alike letter) is tried apart."""
        if isinstance(name, str) and len(name) <= 40:
            return keys(name)[0]
        return str(name)[:40]

    def sign_in(self, name: object, password: object) -> User:
        wrong = AccountError("that name and password do not match an account", 401)
        if isinstance(name, str) and not _text(name):
            raise AccountError("a name holds no control characters (NUL) nor halves of "
                               "surrogate pairs: letters, digits, _ or -")
        if isinstance(password, str) and not _text(password):
            raise AccountError("a password holds no NUL nor halves of surrogate pairs")
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 40 \
                or len(password) > PASSWORD_CHARS[1]:
            raise wrong
        # By its key, or by its exact name: an account of an older schema whose name
        # looks like an earlier one's is keyed apart (store._rekey_names).
        name = normal(name)
        with self.store.engine.connect() as db:
            found = db.execute(
                select(users.c.id, users.c.name, users.c.password)
                .where(or_(users.c.key == keys(name)[0], users.c.name == name))
                .order_by((users.c.name == name).desc()).limit(1)).one_or_none()
        try:
            self.hasher.verify(found.password if found else self._dummy, password)
        except (VerificationError, InvalidHashError):
            raise wrong from None
        if found is None:
            raise wrong
        if self.hasher.check_needs_rehash(found.password):
            with self.store.writer.begin() as db:
                db.execute(update(users).where(users.c.id == found.id)
                           .values(password=self.hasher.hash(password)))
        return User(int(found.id), str(found.name))

    def new_login(self, user: User) -> str:
        """A login for ``user``: the token for its cookie (kept here only as a hash)."""
        token = secrets.token_urlsafe(24)
        now = time.time()
        with self.store.writer.begin() as db:
            mine = logins.c.user_id == user.id
            db.execute(logins.delete().where(mine, logins.c.expires <= now))
            kept = (select(logins.c.token_hash).where(mine)
                    .order_by(logins.c.expires.desc()).limit(LOGINS_PER_ACCOUNT - 1))
            db.execute(logins.delete().where(mine, logins.c.token_hash.not_in(kept)))
            db.execute(insert(logins).values(token_hash=token_hash(token), user_id=user.id,
                                             expires=now + LOGIN_DAYS * 86400))
        return token

    def user_of(self, token: str | None) -> User | None:
        """The account a login cookie holds, or None (none, expired, or made up)."""
        if not token or len(token) > 64:
            return None
        with self.store.engine.connect() as db:
            found = db.execute(
                select(users.c.id, users.c.name).join(logins, logins.c.user_id == users.c.id)
                .where(logins.c.token_hash == token_hash(token),
                       logins.c.expires > time.time())).one_or_none()
        return None if found is None else User(int(found.id), str(found.name))

    def sign_out(self, token: str | None, everywhere: bool = False) -> int:
        """End the login ``token`` (and, ``everywhere``, every login of its account, on
        every device): how many logins were ended."""
        if not token or len(token) > 64:
            return 0
        this = logins.c.token_hash == token_hash(token)
        with self.store.writer.begin() as db:
            if everywhere:
                this = logins.c.user_id.in_(select(logins.c.user_id).where(this))
            return int(db.execute(logins.delete().where(this)).rowcount)

    # --- ratings ----------------------------------------------------------------------------

    def rating(self, user_id: int, pool: str) -> tuple[Rating, int]:
        """An account's rating in ``pool`` and its rated games there (a newcomer's: 0)."""
        with self.store.engine.connect() as db:
            return _rating(db, user_id, pool)

    def ratings_of(self, user_id: int) -> dict[str, Shown]:
        with self.store.engine.connect() as db:
            found = db.execute(select(ratings).where(ratings.c.user_id == user_id)).all()
        return {row.pool: _shown(row) for row in found}

    def leaderboard(self, pool: str, limit: int = 50) -> list[dict[str, object]]:
        """The best-rated accounts of ``pool`` past their provisional games: name, rating,
        deviation and games."""
        with self.store.engine.connect() as db:
            found = db.execute(
                select(ratings, users.c.name).join(users, users.c.id == ratings.c.user_id)
                .where(ratings.c.pool == pool, ratings.c.games >= LISTED_AFTER)
                .order_by(ratings.c.rating.desc(), ratings.c.user_id).limit(limit)).all()
        return [{"name": row.name, **_shown(row)} for row in found]


class Shown(TypedDict):
    """A rating as the pages show it."""

    rating: float
    deviation: float
    games: int
    provisional: bool


def _shown(row: Row[Any]) -> Shown:
    return {"rating": round(row.rating, 2), "deviation": round(row.deviation, 2),
            "games": row.games, "provisional": row.games < LISTED_AFTER}


def _rating(db: Connection, user_id: int, pool: str) -> tuple[Rating, int]:
    found = db.execute(select(ratings).where(ratings.c.user_id == user_id,
                                             ratings.c.pool == pool)).one_or_none()
    if found is None:
        return Rating(), 0
    return Rating(found.rating, found.deviation, found.volatility), int(found.games)


def settle(db: Connection, table_id: str, pool: str, winner: int, loser: int,
           plays: list[int], seat_addresses: list[str], now: float) -> str:
    """Settle the result of rated table ``table_id``, won by account ``winner`` against
    ``loser`` (each made ``plays`` checker plays; their seats were taken from the hashed
    ``seat_addresses``), in the transaction ``db`` that ends it: the result is kept, and
    rated unless the defences against rating farming say no. Why not, or ""."""
    why = ""
    if min(plays) < PLAYS_TO_RATE:
        why = f"each player makes {PLAYS_TO_RATE} plays before a result counts"
    else:
        made_from = dict(db.execute(select(users.c.id, users.c.address)
                                    .where(users.c.id.in_([winner, loser]))).all())
        seats_from = [a for a in seat_addresses if a]
        if len(set(seats_from)) < len(seats_from) or (
                made_from.get(winner) and made_from.get(winner) == made_from.get(loser)):
            why = "both accounts play from one address"
        else:
            pair = or_(and_(results.c.winner == winner, results.c.loser == loser),
                       and_(results.c.winner == loser, results.c.loser == winner))
            today = db.execute(select(func.count()).select_from(results).where(
                pair, results.c.rated.is_(True), results.c.at > now - 86400)).scalar_one()
            if today >= PAIR_RATED_PER_DAY:
                why = f"these two accounts have had their {PAIR_RATED_PER_DAY} rated " \
                      "results of the day"
    db.execute(insert(results).values(table_id=table_id, pool=pool, winner=winner,
                                      loser=loser, rated=not why, why=why, at=now))
    if not why:
        rate_result(db, pool, winner, loser, table_id, now)
    return why


def rate_result(db: Connection, pool: str, winner: int, loser: int, table_id: str,
                at: float) -> None:
    """Rate a game or match that account ``winner`` won against ``loser`` at table
    ``table_id`` (one rating period each, both rated against the other as they stood
    before), in the transaction ``db`` that ends the table; each new rating is kept in
    the history too (the player pages' graphs)."""
    (won, won_games), (lost, lost_games) = _rating(db, winner, pool), _rating(db, loser, pool)
    for user, games, after in ((winner, won_games, rate(won, [(lost, 1.0)])),
                               (loser, lost_games, rate(lost, [(won, 0.0)]))):
        values = {"rating": after.rating, "deviation": after.deviation,
                  "volatility": after.volatility, "games": games + 1}
        if games == 0:  # no row yet
            db.execute(insert(ratings).values(user_id=user, pool=pool, **values))
        else:
            db.execute(update(ratings).where(ratings.c.user_id == user,
                                             ratings.c.pool == pool).values(**values))
        db.execute(insert(rating_history).values(
            user_id=user, pool=pool, table_id=table_id, rating=after.rating,
            deviation=after.deviation, at=at))


__all__ = ["COOKIE", "SECURE_COOKIE", "AccountError", "Accounts", "User", "cookie_name",
           "pool_of", "rate_result", "settle"]
