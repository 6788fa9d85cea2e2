"""Mini App start tokens (webapp/links.py): signed game ids, screens as plain words."""

from __future__ import annotations

import pytest

from webapp.links import link_secret, parse_token, startapp_token

TOKEN = "123456:links-test"


def test_a_token_names_its_game_and_screen() -> None:
    token = startapp_token(12, "initiative", bot_token=TOKEN)
    target = parse_token(link_secret(TOKEN), token)
    assert target is not None and (target.game_id, target.screen) == (12, "initiative")
    assert token.startswith(target.game_token + "-")


def test_the_screen_is_any_word_the_page_may_not_have() -> None:
    """Which screens exist is the rule system's business: the page opens the roller for a
    word its system lacks (main.js), so the link keeps any word and nothing else."""
    target = parse_token(link_secret(TOKEN), startapp_token(3, "duel", bot_token=TOKEN))
    assert target is not None and target.screen == "duel"
    with pytest.raises(ValueError):
        startapp_token(3, "Бой", bot_token=TOKEN)
    with pytest.raises(ValueError):
        startapp_token(3, "a" * 17, bot_token=TOKEN)


def test_a_forged_or_foreign_token_is_nobodys() -> None:
    token = startapp_token(12, bot_token=TOKEN)
    assert parse_token(link_secret("999:other-bot"), token) is None
    forged = token.replace("g12-", "g13-")
    assert parse_token(link_secret(TOKEN), forged) is None
    assert parse_token(link_secret(TOKEN), token + "-Бой") is None
