"""Matches at an event: two entrants at a table, playing a home game of the event's variant.

A Bid Whist tournament's preliminary rounds and bracket matches are each one such match: the
table's phone scores it with the home-game screens (bids, books, renege, a tied round's extra
hand), and the match is final once both teams have signed its sheet, or the director closed it.
Signing locks the game; the director can reopen it for a correction (the signatures go, and
the teams sign again).

Each team's signature comes from that team: from its own page (the link on its team card), or
on the table's phone with the four-digit code printed on its card (as a Bridgemate's East
accepts North's entry). Which device signed, and how, is recorded. A sheet that changes after
one team signed loses that signature, and both teams see why (`_withdraw_signatures`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

from scorepad.events import core
from scorepad.extensions import db
from scorepad.formats import bid_whist_event as fmt
from scorepad.games import service as games
from scorepad.kept import Kept
from scorepad.models import AuditEntry, Event, EventEntrant, EventMatch, Game, utcnow
from scorepad.rules import bid_whist
from scorepad.rules.base import RuleError, RuleErrors, ScoreSheet
from scorepad.rules.errors import M
from scorepad.rules.record import NAME_MAX

VARIANT_KEY = bid_whist.VARIANT.key  # the variant every match's game plays
GHOST = 0  # the ghost team of a bye: "points are of no value for the team picked to play the odd team"
GHOST_NAME = M("Ghost team")  # said in the reader's language; stored in a game's set-up as its English
WALKOVER = "walkover"  # `closed_by` of a match decided by the director without play (a no-show)
TITLE_LENGTH = 120  # Game.title's column
NOTE_LENGTH = 300  # AuditEntry.note's and EventMatch.dispute's columns
BY_LENGTH, SIGN_NOTE_LENGTH = 80, 200  # EventMatch.signed_*_by's and sign_note's columns
CODE_TRIES, CODE_WINDOW = 5, timedelta(minutes=10)  # wrong codes allowed for one team on one sheet
WRONG_CODE = "wrong team code"
CODE_LIFTED = "team code unlocked"  # the director let a team try its code again on a sheet


@dataclass(frozen=True)
class Outcome:
    """A match as its sheet stands: points per side, the winner once the round is over."""

    points: tuple[int, int]
    hands: int
    over: bool
    winner: int | None  # 0 (home) or 1 (away)


@dataclass(frozen=True)
class MatchView:
    """A match with its teams' names, its outcome and where its signing stands."""

    match: EventMatch
    names: tuple[str, str]
    outcome: Outcome

    @property
    def signed(self) -> tuple[bool, bool]:
        ghost = (self.match.home == GHOST, self.match.away == GHOST)
        return (self.match.signed_home_at is not None or ghost[0], self.match.signed_away_at is not None or ghost[1])

    @property
    def final(self) -> bool:
        if self.match.closed_by == WALKOVER:
            return True
        return self.outcome.over and (all(self.signed) or self.match.closed_by is not None)

    @property
    def state(self) -> str:
        """ "playing", "to sign", "disputed" or "final", for the director's grid and the boards."""
        if self.final:
            return "final"
        if self.match.dispute:
            return "disputed"
        return "to sign" if self.outcome.over else "playing"


def forget_outcomes(game_ids: Sequence[int]) -> None:
    """Drop the outcomes kept for these games (`outcome`), whatever their last change."""
    for game_id in game_ids:
        _OUTCOMES.forget(game_id)


def outcome_known(game: Game) -> bool:
    """Whether `outcome(game)` is kept (it reads nothing else of the game then)."""
    return _OUTCOMES.settled(game.id, game.updated_at)


def outcome(game: Game | None, view: games.GameView | None = None) -> Outcome:
    """Points and winner of a match from its game's sheet (rounds won first, then points).

    Kept per game at its last change: a board of 64 matches is drawn after every hand entered
    anywhere, and loading and replaying the 63 games that did not change would make it slow (a
    kept outcome does not even load the game's hands). Every write to a game or its hands moves
    its `updated_at` (entries, undo, corrections), so a changed game is never served stale. A
    writer that derived the game already (`view`) keeps its outcome from that."""
    if game is None:
        return Outcome((0, 0), 0, False, None)
    if view is not None:
        found = _outcome_of(view.sheet, games.hand_count(game))
        _OUTCOMES.put(game.id, game.updated_at, found)
        return found
    return _OUTCOMES.get(
        game.id, game.updated_at, lambda _: _outcome_from(games.derived(game)), stamp_now=lambda: _stored_at(game)
    )


def _stored_at(game: Game) -> object:
    """The game's `updated_at` as the database holds it now: the suite's check of kept outcomes
    forgives one derived while another request wrote to the game (its hands were read after the row)."""
    return db.session.scalar(select(Game.updated_at).where(Game.id == game.id))


def _outcome_of(sheet: ScoreSheet, hands: int) -> Outcome:
    last = sheet.lines[-1].cells if sheet.lines else None
    points = (int(last[0].total), int(last[1].total)) if last else (0, 0)
    winner = sheet.winners[0] if sheet.finished and len(sheet.winners) == 1 else None
    return Outcome(points, hands, sheet.finished, winner)


def _outcome_from(derived: games.Derived) -> Outcome:
    """The outcome from the game's derivation, looked up once for its sheet and its count of hands."""
    return _outcome_of(derived.sheet, len(derived.hands))


_OUTCOMES: Kept[Outcome] = Kept("match outcomes", size=20_000)  # by game id: a few dozen bytes each


def team_record(entrant: EventEntrant | None, number: int) -> dict[str, object]:
    """A side of a match's game: "(3) Aces" and its two players (stand-ins for the ghost).

    A team's name may be longer than a game record's (registration allows 60 characters, a game
    40): the number goes first and the name is cut to fit, so two sides never share a name and
    the game can always be read back."""
    if entrant is None:
        return {"name": GHOST_NAME, "players": ["Stand-in N", "Stand-in S"] if number == 0 else []}
    return {"name": _clip(f"({entrant.number}) {entrant.name}", NAME_MAX), "players": list(entrant.players)}


def open_match(
    event: Event, stage: str, number: int, table: int, home: int, away: int, options: dict[str, object]
) -> EventMatch:
    """A match and its game (not committed: the caller commits the round or bracket level at once)."""
    by_number = {e.number: e for e in event.entrants}
    sides = [team_record(by_number.get(n), n) for n in (home, away)]
    if home == GHOST or away == GHOST:  # stand-ins' names must differ from the real team's (a player may be "Ghost 1")
        real = {str(p).casefold() for p in sides[1 if home == GHOST else 0]["players"]}  # type: ignore[attr-defined]
        stand_ins = [n for n in (f"Ghost {i}" for i in range(1, 5)) if n.casefold() not in real][:2]
        sides[0 if home == GHOST else 1] = {"name": GHOST_NAME, "players": stand_ins}
    title = f"{event.name}: {_stage_words(event, stage, number)}, table {table}"
    game = Game(
        variant=VARIANT_KEY,
        title=_clip(title, TITLE_LENGTH),
        options=dict(options),
        players=[],
        teams=sides,
        first_dealer=0,
        event_id=event.id,
    )
    match = EventMatch(stage=stage, number=number, table=table, home=home, away=away, game=game)
    event.matches.append(match)
    return match


def _clip(text: str, length: int) -> str:
    """Text that fits its column (PostgreSQL refuses a longer value, SQLite silently keeps it)."""
    return text if len(text) <= length else text[: length - 1] + "…"


def is_final(match: EventMatch) -> bool:
    """Signed by both teams (the sheet locked), made final by the director, or a walkover."""
    return match.closed_by is not None or (match.game is not None and match.game.locked_at is not None)


def _side(match: EventMatch, side: int, field: str) -> int:
    """The entrant number of side 0 (N/S) or 1 (E/W); the ghost team neither signs nor disputes."""
    if side not in (0, 1):
        raise RuleErrors([RuleError(field, M("choose the team: N/S or E/W"))])
    number = (match.home, match.away)[side]
    if number == GHOST:
        raise RuleErrors([RuleError(field, M("the ghost team does not sign: only the real team signs its sheet"))])
    return number


def _stage_words(event: Event, stage: str, number: int) -> str:
    """Which match it is, in words: "round 2", or the bracket match's name ("Final Four · match 1")."""
    if stage == "round":
        return M("round %(number)s", number=number)
    teams = sum(1 for e in event.entrants if len(e.players) == 2)
    return fmt.match_name(fmt.playoff_size(teams, str(event.options.get("bracket", "auto"))), number)


def stage_words(match: EventMatch) -> str:
    """Which match it is, in words: "round 2", "Final Four · match 1"."""
    return _stage_words(match.event, match.stage, match.number)


_BY = {
    "table phone, team code · device ": M("table phone, team code · device %(device)s"),
    "team page · device ": M("team page · device %(device)s"),
}  # views/bid_whist.py's words for a signature


def by_words(by: str) -> str:
    """How a sheet was signed (`signed_*_by`, as the views wrote it) as a message the pages say in the
    reader's language; other words as they are."""
    for start, message in _BY.items():
        if by.startswith(start) and by[len(start) :].isalnum():
            return M(message.template, device=by[len(start) :])
    return by


def view(match: EventMatch, names: dict[int, str], game_view: games.GameView | None = None) -> MatchView:
    return MatchView(
        match, (names.get(match.home, GHOST_NAME), names.get(match.away, GHOST_NAME)), outcome(match.game, game_view)
    )


by_game = core.match_of


def team_code(entrant: EventEntrant) -> str:
    """The four digits on a team's card that sign its sheet on the table's phone. Made from the
    team's secret link, so nothing on the table gives them away; a new card would change them."""
    digest = hashlib.sha256(f"scorepad.team-code:{entrant.token}".encode()).digest()
    return f"{int.from_bytes(digest[:4], 'big') % 10000:04d}"


def _code_tries(event_id: int, table: int | None = None) -> dict[tuple[int, int], int]:
    """The wrong team codes of the last CODE_WINDOW per (match, side) at the event's tables (or one
    table), since the director last let that team try again: each team's tries on each sheet count
    apart, so an opponent cannot use up a team's tries, nor one sheet's tries lock the next round's."""
    since = (utcnow() - CODE_WINDOW).replace(tzinfo=None)
    query = db.session.query(AuditEntry).filter(
        AuditEntry.event_id == event_id, AuditEntry.action.in_((WRONG_CODE, CODE_LIFTED)), AuditEntry.at >= since
    )
    if table is not None:
        query = query.filter(AuditEntry.table == table)
    tries: dict[tuple[int, int], int] = {}
    for entry in query.order_by(AuditEntry.at, AuditEntry.id):
        where = entry.new or {}
        match, side = where.get("match"), where.get("side")
        if not isinstance(match, int) or side not in (0, 1):
            continue  # names no sheet and side (an older version's entry): counts for no team
        key = (match, int(side))
        tries[key] = 0 if entry.action == CODE_LIFTED else tries.get(key, 0) + 1
    return tries


def code_locks(event: Event) -> dict[tuple[int, int], int]:
    """The (match id, side) whose team may not enter its code on the table's phone now, and the
    wrong tries that locked it: the control room offers to let each try again."""
    return {key: count for key, count in _code_tries(event.id).items() if count >= CODE_TRIES}


def check_code(match: EventMatch, side: int, code: str) -> None:
    """A signature on the table's phone must carry the signing team's code (a few wrong tries per
    team and sheet, then only the team's own page, or the director letting it try again)."""
    number = _side(match, side, "sign")
    entrant = next((e for e in match.event.entrants if e.number == number), None)
    field = f"code.{side}"
    if entrant is None:
        raise RuleErrors([RuleError(field, M("this team is not registered any more: ask the director"))])
    if _code_tries(match.event_id, match.table).get((match.id, side), 0) >= CODE_TRIES:
        raise RuleErrors(
            [
                RuleError(
                    field,
                    M(
                        "too many wrong codes for %(team)s on this sheet: sign from your team's "
                        "own page (scan your team card), or call the director",
                        team=entrant.name,
                    ),
                )
            ]
        )
    code = "".join(code.split())
    if not code:
        raise RuleErrors(
            [
                RuleError(
                    field, M("enter the team code for %(team)s: the four digits on that team's card", team=entrant.name)
                )
            ]
        )
    if len(code) > 8 or not hmac.compare_digest(code.encode(), team_code(entrant).encode()):
        db.session.add(
            core.audit_entry(
                f"table {match.table}",
                WRONG_CODE,
                event_id=match.event_id,
                table=match.table,
                new={"match": match.id, "side": side},
                note=M(
                    "%(stage)s: a wrong code for %(team)s",
                    stage=_stage_words(match.event, match.stage, match.number),
                    team=_clip(entrant.name, 60),
                ),
            )
        )
        db.session.commit()
        raise RuleErrors(
            [
                RuleError(
                    field, M("that is not the team code for %(team)s: it is on that team's card", team=entrant.name)
                )
            ]
        )


def lift_code_lock(match: EventMatch, side: int, actor: str = "director") -> None:
    """Let a team locked out by wrong codes try its code on this sheet again (audited)."""
    number = _side(match, side, "unlock")
    if _code_tries(match.event_id, match.table).get((match.id, side), 0) < CODE_TRIES:
        raise RuleErrors([RuleError("unlock", M("this team's code is not locked on this sheet"))])
    name = next((e.name for e in match.event.entrants if e.number == number), None) or M("a team")
    match.event.audit.append(
        core.audit_entry(
            actor,
            CODE_LIFTED,
            table=match.table,
            new={"match": match.id, "side": side},
            note=M(
                "%(stage)s: %(team)s may enter its team code again",
                stage=_stage_words(match.event, match.stage, match.number),
                team=name,
            ),
        )
    )
    db.session.commit()
    core.announce(match.event, core.Signals(orders=True))


def sign(match: EventMatch, side: int, actor: str, by: str = "", code: str | None = None) -> None:
    """Side 0 (home) or 1 (away) confirms the sheet; with both, the sheet locks. Once only: a second
    signature by the same team, or any after the sheet is final, is refused (and not audited).

    `by` says how and from which device the team signed (its own page, or the table's phone with
    its code): kept with the signature and in the audit trail, for the director. On the table's
    phone the team's `code` is checked once the sheet is ready to sign (see `check_code`)."""
    _side(match, side, "sign")
    if is_final(match):
        raise RuleErrors([RuleError("sign", M("this sheet is already final: nothing more to sign"))])
    result = outcome(match.game)
    if not result.over:
        raise RuleErrors(
            [RuleError("sign", M("the round is not over yet: %(hands)s hands entered", hands=result.hands))]
        )
    if (match.signed_home_at, match.signed_away_at)[side] is not None:
        raise RuleErrors([RuleError("sign", M("this team has already signed the sheet: the other team signs now"))])
    if code is not None:
        check_code(match, side, code)
    now = utcnow()
    by = _clip(by, BY_LENGTH) if by else None
    if side == 0:
        match.signed_home_at, match.signed_home_by = now, by
    else:
        match.signed_away_at, match.signed_away_by = now, by
    match.dispute = ""
    ghosts = (match.home == GHOST, match.away == GHOST)
    if (match.signed_home_at or ghosts[0]) and (match.signed_away_at or ghosts[1]) and match.game is not None:
        match.game.locked_at = now
        match.sign_note = ""
    names = {e.number: e.name for e in match.event.entrants}
    who = names.get((match.home, match.away)[side]) or M("a team")
    stage = _stage_words(match.event, match.stage, match.number)
    match.event.audit.append(
        core.audit_entry(
            actor,
            "signed",
            table=match.table,
            note=M("%(stage)s: sheet signed by %(team)s (%(by)s)", stage=stage, team=who, by=by_words(by))
            if by
            else M("%(stage)s: sheet signed by %(team)s", stage=stage, team=who),
        )
    )
    db.session.commit()


def _withdraw_signatures(game: Game, what: str) -> None:
    """A sheet changed after a team signed it: that signature was given to another sheet, so it goes,
    and both teams are told what changed (the change is committed with this)."""
    match = by_game(game)
    if match is None or (match.signed_home_at is None and match.signed_away_at is None):
        return
    names = {e.number: e.name for e in match.event.entrants}
    signed = [
        names.get(number) or M("a team")
        for number, at in ((match.home, match.signed_home_at), (match.away, match.signed_away_at))
        if at is not None
    ]
    match.signed_home_at = match.signed_away_at = None
    match.signed_home_by = match.signed_away_by = None
    words = (
        M("%(change)s after %(team)s signed", change=what, team=signed[0])
        if len(signed) == 1
        else M("%(change)s after %(first)s and %(second)s signed", change=what, first=signed[0], second=signed[1])
    )
    match.sign_note = _clip(
        f"{words}: the signature is withdrawn. Both teams check the sheet and sign again.", SIGN_NOTE_LENGTH
    )
    match.event.audit.append(
        core.audit_entry(
            f"table {match.table}",
            "signature withdrawn",
            table=match.table,
            note=M("%(stage)s: %(words)s", stage=_stage_words(match.event, match.stage, match.number), words=words),
        )
    )


games.SHEET_CHANGING.append(_withdraw_signatures)


def dispute(match: EventMatch, side: int, reason: str, actor: str) -> None:
    """A team does not sign: the director sees the reason in the control room."""
    given = " ".join(reason.split())[:280]
    reason = given or "no reason given"
    number = _side(match, side, "dispute")
    if is_final(match):
        raise RuleErrors([RuleError("dispute", M("the sheet is final: ask the director to reopen it"))])
    team = next((e.name for e in match.event.entrants if e.number == number), str(number))
    match.dispute = _clip(f"{team}: {reason}", NOTE_LENGTH)  # by name: Bid Whist has no home team
    match.event.audit.append(
        core.audit_entry(
            actor,
            "dispute",
            table=match.table,
            note=M(
                "%(stage)s: %(reason)s",
                stage=_stage_words(match.event, match.stage, match.number),
                reason=given or M("no reason given"),
            ),
        )
    )
    db.session.commit()


def close(match: EventMatch, actor: str = "director") -> None:
    """The director makes the sheet final without both signatures (a team left, a dispute settled)."""
    if not outcome(match.game).over:
        raise RuleErrors([RuleError("close", M("the round is not over yet: enter its hands first"))])
    match.closed_by = actor
    match.dispute = ""
    if match.game is not None:
        match.game.locked_at = utcnow()
    match.event.audit.append(
        core.audit_entry(
            actor,
            "closed",
            table=match.table,
            note=M("%(stage)s: made final by the director", stage=_stage_words(match.event, match.stage, match.number)),
        )
    )
    db.session.commit()


def walkover(match: EventMatch) -> None:
    """The director decides the match without play (the caller records who goes through, and commits)."""
    match.closed_by = WALKOVER
    match.dispute = ""
    if match.game is not None:
        match.game.locked_at = utcnow()


def reopen(match: EventMatch, actor: str = "director") -> None:
    """Unlock a sheet for a correction: its signatures go, and both teams sign it again. Flushed,
    not committed: the caller checks, holding the event, that no later stage was drawn meanwhile."""
    match.closed_by = None
    match.signed_home_at = match.signed_away_at = None
    match.signed_home_by = match.signed_away_by = None
    match.sign_note = ""
    if match.game is not None:
        match.game.locked_at = None
    match.event.audit.append(
        core.audit_entry(
            actor,
            "reopened",
            table=match.table,
            note=M("%(stage)s: reopened for a correction", stage=_stage_words(match.event, match.stage, match.number)),
        )
    )
    db.session.flush()


def of_stage(event: Event, stage: str, number: int | None = None) -> Sequence[EventMatch]:
    return [m for m in event.matches if m.stage == stage and (number is None or m.number == number)]
