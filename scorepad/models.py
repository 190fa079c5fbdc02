"""Database rows: what people entered, never what is derived from it.

A game stores its variant key, options and who plays; each hand stores the entry exactly as made
(the same JSON mapping the rules engine and the game-record format read). Totals, standings and
state are always recomputed from these facts by `scorepad.rules`.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorepad.extensions import db


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def new_token() -> str:
    """A long random URL-safe token (used in links that must not be guessed)."""
    return secrets.token_urlsafe(24)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game of one variant, from set-up to its last hand."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Two links: the spectators' (read-only) and the scorer's (may enter and correct hands).
    public_id: Mapped[str] = mapped_column(String(40), unique=True, default=new_token)
    scorer_token: Mapped[str] = mapped_column(String(48), unique=True, default=new_token)
    variant: Mapped[str] = mapped_column(String(30))
    title: Mapped[str] = mapped_column(String(120), default="")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[list[str]] = mapped_column(JSON, default=list)
    teams: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    first_dealer: Mapped[int] = mapped_column(default=0)
    is_demo: Mapped[bool] = mapped_column(default=False)
    # The hand being entered (bids so far), kept so a refresh or a dropped connection loses nothing.
    pending: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    rematch_of_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )


class Hand(db.Model):  # type: ignore[name-defined,misc]
    """One hand as entered: the raw entry, its number in the game, and when it was entered."""

    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    entered_at: Mapped[datetime] = mapped_column(default=utcnow)
    corrected_at: Mapped[datetime | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship(back_populates="hands")
