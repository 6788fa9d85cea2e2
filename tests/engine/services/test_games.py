from __future__ import annotations

import asyncio

import pytest

from engine import services
from tests.engine.services.conftest import ALICE, BOB, CAROL, CHAT, GM


async def test_create_game(game: services.GameInfo) -> None:
    assert game.chat_id == CHAT and game.topic_id is None
    assert (game.system, game.name, game.chat_title) == ("savage", "Bleach", "Ролевая")
    assert game.gm_id == GM and game.player_ids == () and game.active
    assert await services.find_game(CHAT, None) == game
    assert await services.find_game(CHAT, 0) == game
    assert await services.get_game(game.id) == game
    events = await services.game_events(game.id)
    assert [(e.seq, e.type) for e in events] == [(1, "game_created")]
    assert events[0].payload == {"system": "savage", "name": "Bleach", "gm_id": GM}


async def test_duplicate_game_in_the_same_chat_is_refused(game: services.GameInfo) -> None:
    with pytest.raises(services.GameExists) as err:
        await services.create_game(
            chat_id=CHAT, topic_id=0, system="duel", name="Другая", creator_id=ALICE
        )
    assert err.value.code == "game_exists" and err.value.params["game_id"] == game.id


async def test_concurrent_creation_yields_one_game(users: None) -> None:
    results = await asyncio.gather(
        *(
            services.create_game(
                chat_id=CHAT, topic_id=5, system="duel", name=f"g{i}", creator_id=GM
            )
            for i in range(4)
        ),
        return_exceptions=True,
    )
    created = [r for r in results if isinstance(r, services.GameInfo)]
    refused = [r for r in results if isinstance(r, services.GameExists)]
    assert len(created) == 1 and len(refused) == 3, results
    assert await services.find_game(CHAT, 5) == created[0]


async def test_forum_topics_hold_separate_games(users: None) -> None:
    kwargs = {"chat_id": CHAT, "system": "storyteller", "creator_id": GM, "is_forum": True}
    general = await services.create_game(topic_id=None, name="Общий", **kwargs)
    t1 = await services.create_game(topic_id=11, name="Тема 11", **kwargs)
    t2 = await services.create_game(
        topic_id=12, name="Тема 12", creator_id=ALICE, chat_id=CHAT, system="duel", is_forum=True
    )
    assert len({general.id, t1.id, t2.id}) == 3
    assert (await services.find_game(CHAT, 11)).id == t1.id  # type: ignore[union-attr]
    assert (await services.find_game(CHAT, 12)).gm_id == ALICE  # type: ignore[union-attr]
    assert (await services.find_game(CHAT, None)).id == general.id  # type: ignore[union-attr]
    assert await services.find_game(CHAT, 13) is None
    assert await services.find_game(CHAT + 1, None) is None


async def test_bad_input_is_refused(users: None) -> None:
    with pytest.raises(services.BadSystem) as err:
        await services.create_game(
            chat_id=CHAT, topic_id=None, system="dnd", name="x", creator_id=GM
        )
    assert err.value.code == "bad_system"
    with pytest.raises(services.BadName):
        await services.create_game(
            chat_id=CHAT, topic_id=None, system="duel", name="  ", creator_id=GM
        )
    with pytest.raises(services.NoUser):
        await services.create_game(
            chat_id=CHAT, topic_id=None, system="duel", name="x", creator_id=404
        )
    with pytest.raises(services.NoGame) as no_game:
        await services.get_game(999)
    assert no_game.value.code == "no_game"


async def test_join_is_idempotent_and_the_gm_stays_gm(game: services.GameInfo) -> None:
    joined = await services.join_game(game.id, ALICE)
    again = await services.join_game(game.id, ALICE)
    assert joined.player_ids == again.player_ids == (ALICE,)
    after_gm = await services.join_game(game.id, GM)
    assert after_gm.gm_id == GM and after_gm.player_ids == (ALICE,)
    types = [e.type for e in await services.game_events(game.id)]
    assert types == ["game_created", "player_joined"]


async def test_concurrent_joins_record_one_event(game: services.GameInfo) -> None:
    await asyncio.gather(*(services.join_game(game.id, BOB) for _ in range(4)))
    assert (await services.get_game(game.id)).player_ids == (BOB,)
    assert [e.type for e in await services.game_events(game.id)].count("player_joined") == 1


async def test_gm_transfer_only_by_the_gm(game: services.GameInfo) -> None:
    await services.join_game(game.id, ALICE)
    await services.join_game(game.id, BOB)
    with pytest.raises(services.NotGm) as err:
        await services.transfer_gm(game.id, actor_id=ALICE, new_gm_id=ALICE)
    assert err.value.code == "not_gm"
    moved = await services.transfer_gm(game.id, actor_id=GM, new_gm_id=ALICE)
    assert moved.gm_id == ALICE
    assert set(moved.player_ids) == {GM, BOB}  # Alice's player role replaced, old GM plays
    with pytest.raises(services.NotGm):
        await services.transfer_gm(game.id, actor_id=GM, new_gm_id=GM)
    # To someone who had not joined: they become GM directly.
    back = await services.transfer_gm(game.id, actor_id=ALICE, new_gm_id=CAROL)
    assert back.gm_id == CAROL and set(back.player_ids) == {GM, BOB, ALICE}
    changes = [e.payload for e in await services.game_events(game.id) if e.type == "gm_changed"]
    assert changes == [{"from": GM, "to": ALICE}, {"from": ALICE, "to": CAROL}]


async def test_games_of_user_and_private_selection(game: services.GameInfo) -> None:
    other = await services.create_game(
        chat_id=CHAT, topic_id=3, system="duel", name="Дуэль", creator_id=ALICE
    )
    await services.join_game(game.id, ALICE)
    assert [g.id for g in await services.games_of_user(ALICE)] == [game.id, other.id]
    assert [g.id for g in await services.games_of_user(GM)] == [game.id]
    assert await services.games_of_user(CAROL) == []

    assert await services.selected_private_game(ALICE) is None
    with pytest.raises(services.NotMember) as err:
        await services.select_private_game(CAROL, game.id)
    assert err.value.code == "not_member"
    assert (await services.select_private_game(ALICE, game.id)).id == game.id
    assert (await services.selected_private_game(ALICE)).id == game.id  # type: ignore[union-attr]
    assert (await services.select_private_game(ALICE, other.id)).id == other.id
    assert (await services.selected_private_game(ALICE)).id == other.id  # type: ignore[union-attr]
    with pytest.raises(services.NoGame):
        await services.select_private_game(ALICE, 999)


async def test_end_game_frees_the_slot(game: services.GameInfo) -> None:
    await services.join_game(game.id, ALICE)
    await services.select_private_game(ALICE, game.id)
    with pytest.raises(services.NotGm):
        await services.end_game(game.id, actor_id=ALICE)
    ended = await services.end_game(game.id, actor_id=GM)
    assert not ended.active
    assert await services.find_game(CHAT, None) is None
    assert await services.games_of_user(ALICE) == []
    assert await services.selected_private_game(ALICE) is None
    with pytest.raises(services.GameEnded) as err:
        await services.join_game(game.id, BOB)
    assert err.value.code == "game_ended"
    assert (await services.get_game(game.id)).active is False
    again = await services.create_game(
        chat_id=CHAT, topic_id=None, system="duel", name="Новая", creator_id=BOB
    )
    assert again.id != game.id and again.gm_id == BOB
    assert [e.type for e in await services.game_events(game.id)][-1] == "game_ended"


async def test_two_changes_of_the_options_at_once_both_land(game: services.GameInfo) -> None:
    """Each change reads and writes the options in one transaction that locks the game (the
    reading and the writing no longer interleave); both land, each in the game's log."""
    await asyncio.gather(
        services.savage.set_quiet_mode(game.id, True, actor_id=GM),
        services.savage.set_players_set_scene(game.id, True, actor_id=GM),
    )
    options = (await services.get_game(game.id)).options
    assert options["quiet"] is True and options["players_set_scene"] is True
    changed = [
        e.payload for e in await services.game_events(game.id) if e.type == "options_changed"
    ]
    assert sorted(p["key"] for p in changed) == ["players_set_scene", "quiet"]
    assert all(p["by"] == GM for p in changed)
