"""A receipt check people can read (issue 26 item 3): the published turn gives each receipt
one short line with a link to its verification page; the page answers the exact hashed text
— without the comment to the GM — that hashes to the receipt the topic saw. The dice are
checkable (item 1): the topic gets the whole SHA-256 of the turn's seed before anyone chooses,
a seal commits to the choices only (a changed turn holds no die), and the revealed seed with
both final sealed receipts gives every die (the post's ✓; the page checks them)."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import AsyncIterator
from itertools import count
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiohttp.test_utils import TestClient

from bot.settings import Settings
from bot.systems.duel.callbacks import DuelFormCallback, DuelReviewCallback
from engine.duel import Attack, Block, verify_dice
from engine.duel.dice import faces_of, mixed_receipts, seeded_face
from engine.services import duel as duels
from engine.services import find_game
from engine.services.duel import duels as duel_service
from tests.bot.conftest import ALICE, BORIS, VERA
from tests.engine.duel.six_turns import BJORN, TAKEDA, TURNS
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI
from tests.support.telegram import TelegramDriver, private
from webapp.app import create_app

from .test_duel import CODE, FORUM, TOPIC, arena, topic_texts

PUBLIC = "https://kosti.example"
POSTED = re.compile(r"SHA-256 зерна: ([0-9a-f]{64})")
SEED = re.compile(r"🎲 Зерно костей хода: ([0-9a-f]+) — .*? (✓|✗)")
LINK = re.compile(r'🔓 (\S+): квитанция (\S+) ✓ сходится — <a href="([^"]+)">проверить</a>')


@pytest.fixture
def settings(api: FakeBotAPI) -> Settings:
    return Settings(
        bot_token=BOT_TOKEN,
        bot_api_url=api.base_url,
        default_locale="ru",
        public_url=PUBLIC,
        flood_group_per_minute=0,
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture
async def web(settings: Settings, aiohttp_client: Any) -> AsyncIterator[TestClient]:
    yield await aiohttp_client(create_app(settings))


async def test_each_receipt_is_a_line_with_a_link_to_its_check(
    tg: TelegramDriver, web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the receipts' salts (secret random ones) from a counter instead: the dice mix the
    # receipts in, and one fixed turn keeps the post's length the same from run to run
    salts = (f"{n:032x}" for n in count(1))
    monkeypatch.setattr(duel_service, "new_salt", lambda: next(salts))
    table = await arena(tg)
    tg.dp["rng"] = random.Random(26)  # the system's kind: the turn's dice come from a seed
    opening = topic_texts(await table.say(VERA, "/duel Бьорн против Такеда"))[0]
    posted = POSTED.search(opening)  # the seed's whole SHA-256, before anyone chose
    assert posted is not None
    form = table.forms[ALICE.id].result
    comment = "целюсь в левый бок"
    table._track((await tg.send(ALICE, private(ALICE), comment, reply_to=form)).calls)
    a, _, b, _ = TURNS[0]
    mark = tg.api.mark()
    await table.submit(ALICE, BJORN, a, [])  # no faces from the rng: the seed gives them
    # Алиса changes her sealed turn (other sides): a new receipt; no die is drawn before both
    sent = table.forms[ALICE.id]
    await table.press(ALICE, sent, table.button(sent, DuelFormCallback, op="reset"))
    await table.submit(ALICE, BJORN, [Attack("right"), Block("left")], [])
    await table.submit(BORIS, TAKEDA, b, [])
    review = table.review
    assert review is not None
    await table.press(VERA, review, table.button(review, DuelReviewCallback, op="publish"))
    thread = topic_texts(tg.api.since(mark))
    sealed = [c for t in thread if "🔒" in t for c in CODE.findall(t)]
    (post,) = [t for t in thread if "⚔️ Ход 1" in t]
    lines = LINK.findall(post)
    names = [("<b>Бьорн</b>", sealed[1]), ("<b>Такеда</b>", sealed[2])]
    assert [(who, code) for who, code, _ in lines] == names
    assert comment not in post and "{" not in post and len(post) < 1500
    # the dice: the revealed seed hashes to what the topic got before anyone chose, and every
    # die comes from it and the two final receipts (the topic's lines name them)
    revealed = SEED.search(post)
    assert revealed is not None and revealed.group(2) == "✓"
    seed = revealed.group(1)
    assert hashlib.sha256(seed.encode()).hexdigest() == posted.group(1)
    game = await find_game(FORUM.id, None)
    assert game is not None
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None
    turn = view.state.history[0]
    (before,) = [s.submission for s in turn.replaced]
    subs = (*turn.proposal.submissions, before)
    receipts = mixed_receipts(turn)
    assert receipts is not None
    assert [r[:4] for r in receipts] == [code[:4] for _, code in names]
    assert all(verify_dice(seed, posted.group(1), sub, receipts) for sub in subs)
    assert not list(faces_of(before))  # the changed turn was never drawn
    assert list(faces_of(turn.proposal.submissions[0]))
    for _, code, href in lines:
        url = urlsplit(href.replace("&amp;", "&"))
        assert f"{url.scheme}://{url.netloc}" == PUBLIC and url.query == "lang=ru"
        page = await web.get(url.path)
        assert page.status == 200 and "verify.js" in await page.text()
        body = await (await web.get(url.path + ".json?" + url.query)).json()
        payload = body["roll"]["payload"]
        assert hashlib.sha256(payload.encode()).hexdigest() == body["roll"]["receipt"]
        assert body["roll"]["code"] == code and comment not in payload
        assert '"rolls"' not in payload  # the receipt is of the choices, not the dice
        assert "printf %s" in body["roll"]["command"]
        dice = body["dice"]  # the page checks the seed and each die itself
        assert dice["seed"] == seed and dice["hash"] == posted.group(1)
        assert dice["receipts"] == list(receipts) and body["roll"]["receipt"] in receipts
        assert (
            dice["turn"] == 1
            and dice["items"]
            and all(
                i["message"] == f"1|{dice['fighter']}|{i['slot']}|{receipts[0]}|{receipts[1]}"
                and i["face"]
                == seeded_face(seed, 1, dice["fighter"], i["slot"], i["sides"], receipts)
                for i in dice["items"]
            )
        )
    # a made-up address is not found
    other = "b" if url.path.endswith("a") else "a"  # the mac's last character changed
    assert (await web.get(url.path[:-1] + other + ".json")).status == 404
