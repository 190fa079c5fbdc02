"""`say`: the rules' messages in the reader's language, remembered per language and message (a score
sheet says the same few words in every row). What is remembered must never answer for another
language, nor for another message that happens to read the same in English."""

from __future__ import annotations

from flask import Flask

from scorepad.i18n import say, speaking
from scorepad.rules.errors import M


def test_a_message_is_said_in_each_readers_language_however_often_it_was_said_before(app: Flask) -> None:
    message = M("Hand %(hand)s of %(total)s", hand=3, total=M("hand %(number)s", number=30))
    with app.test_request_context():
        for _ in range(2):
            assert say(message) == "Hand 3 of hand 30"
            with speaking("fr"):
                assert say(message) == "Donne 3 sur donne 30"
            with speaking("es"):
                assert say(message).startswith("Mano 3")


def test_two_messages_that_read_the_same_in_english_are_each_said_by_their_own_template(app: Flask) -> None:
    by_template = M("hand %(number)s", number=7)
    as_text = M("%(words)s", words="hand 7")  # the same English, and nothing to translate in it
    assert str(by_template) == str(as_text)
    with app.test_request_context(), speaking("fr"):
        assert say(by_template) == "donne 7"
        assert say(as_text) == "hand 7"
        assert say(by_template) == "donne 7"
