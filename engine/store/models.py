"""Tortoise ORM models: users, chats, games, the event log and the roll log.

Telegram ids (users, chats, updates) are primary keys we never generate ourselves,
hence ``generated=False`` (see docs/storage.md: generated migrations drop it).
Each relation's column (``game_id``) is declared beside it for the type checker; Tortoise
sets it on every instance.
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model

ROLE_GM = "gm"
ROLE_PLAYER = "player"


class User(Model):
    id = fields.BigIntField(primary_key=True, generated=False)
    first_name = fields.CharField(max_length=255)
    username = fields.CharField(max_length=64, null=True)
    language = fields.CharField(max_length=8, null=True)
    bot_started = fields.BooleanField(default=False, db_default=False)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "users"


class Chat(Model):
    id = fields.BigIntField(primary_key=True, generated=False)
    title = fields.CharField(max_length=255, null=True)
    type = fields.CharField(max_length=16, default="group", db_default="group")
    is_forum = fields.BooleanField(default=False, db_default=False)

    class Meta:
        table = "chats"


class Game(Model):
    id = fields.IntField(primary_key=True)
    chat: fields.ForeignKeyRelation[Chat] = fields.ForeignKeyField(
        "models.Chat", related_name="games", on_delete=fields.CASCADE
    )
    chat_id: int
    topic_id = fields.BigIntField(default=0, db_default=0)  # 0 = no forum topic
    system = fields.CharField(max_length=16)
    name = fields.CharField(max_length=255)
    created_by = fields.BigIntField()
    created_at = fields.DatetimeField(auto_now_add=True)
    active = fields.BooleanField(default=True, db_default=True)
    # "<chat_id>:<topic_id>" while active, NULL once ended. A plain UNIQUE column enforces
    # "one active game per (chat, topic)" on SQLite and PostgreSQL alike (NULLs never clash),
    # where a partial unique index would be PostgreSQL-only.
    active_slot = fields.CharField(max_length=48, null=True, unique=True)
    # A rule system's per-game settings ({"quiet": true}); NULL: all at their defaults.
    options: fields.Field[dict[str, Any] | None] = fields.JSONField(null=True)

    class Meta:
        table = "games"
        indexes = (("chat_id", "topic_id"),)


class Role(Model):
    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="roles", on_delete=fields.CASCADE
    )
    game_id: int
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField(
        "models.User", related_name="roles", on_delete=fields.CASCADE
    )
    user_id: int
    role = fields.CharField(max_length=8)  # ROLE_GM | ROLE_PLAYER
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "roles"
        unique_together = (("game", "user"),)


class GameEvent(Model):
    # Append-only event log: (game, seq) is unique, so a racing second writer fails.
    # (No docstrings on models: Tortoise turns them into table comments in the migrations.)

    id = fields.BigIntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="events", on_delete=fields.CASCADE
    )
    game_id: int
    seq = fields.IntField()
    type = fields.CharField(max_length=64)
    payload: dict[str, Any] = fields.JSONField(default=dict)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "game_events"
        unique_together = (("game", "seq"),)


class Stream(Model):
    # One event-sourced aggregate of a game ("<kind>:3", a scene): see
    # engine/services/aggregates. The row is the stream's head — writers lock it and advance
    # head_seq with a conditional UPDATE, so two commands can never both apply on one state.

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="streams", on_delete=fields.CASCADE
    )
    game_id: int
    key = fields.CharField(max_length=64)
    aggregate = fields.CharField(max_length=32)  # Aggregate.name
    params: dict[str, Any] = fields.JSONField(
        default=dict
    )  # argument of Aggregate.initial, for replays
    head_seq = fields.IntField(default=0, db_default=0)
    head_step = fields.IntField(default=0, db_default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)
    closed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "streams"
        unique_together = (("game", "key"),)


class StreamEvent(Model):
    # Append-only: unique (stream, seq). A step is the events of one command; an undo is a
    # step of its own holding one "$undo" event, so the log keeps what was undone and by whom.
    # Indexed by (stream, step) too: the newest steps are read without scanning the log.

    id = fields.BigIntField(primary_key=True)
    stream: fields.ForeignKeyRelation[Stream] = fields.ForeignKeyField(
        "models.Stream", related_name="events", on_delete=fields.CASCADE
    )
    stream_id: int
    seq = fields.IntField()
    step = fields.IntField()
    type = fields.CharField(max_length=64)
    payload: dict[str, Any] = fields.JSONField(default=dict)
    actor_id = fields.BigIntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "stream_events"
        unique_together = (("stream", "seq"),)
        indexes = (("stream_id", "step"),)


class StreamSnapshot(Model):
    # The latest state of a stream at `seq` (one row per stream, overwritten). A cache only:
    # ignored when `version` differs from the aggregate's, rebuilt from the log.

    id = fields.IntField(primary_key=True)
    stream: fields.OneToOneRelation[Stream] = fields.OneToOneField(
        "models.Stream", related_name="snapshot", on_delete=fields.CASCADE
    )
    stream_id: int
    seq = fields.IntField()
    version = fields.IntField()
    state: dict[str, Any] = fields.JSONField()
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "stream_snapshots"


class StreamCheckpoint(Model):
    # The state of a stream at `seq` (after step `step`), kept every
    # `Aggregate.checkpoint_every` steps and never overwritten: an undo replays from the
    # newest one before the step it takes back instead of from the start. A cache like the
    # snapshot: used only while `version` is the aggregate's, the log stays the truth.

    id = fields.BigIntField(primary_key=True)
    stream: fields.ForeignKeyRelation[Stream] = fields.ForeignKeyField(
        "models.Stream", related_name="checkpoints", on_delete=fields.CASCADE
    )
    stream_id: int
    seq = fields.IntField()
    step = fields.IntField()
    version = fields.IntField()
    state: dict[str, Any] = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "stream_checkpoints"
        unique_together = (("stream", "seq"),)


class BoardMessage(Model):
    # The chat message the bot keeps up to date for a stream (the scene's board): edited
    # rather than sent again. One row per stream.

    id = fields.IntField(primary_key=True)
    stream: fields.OneToOneRelation[Stream] = fields.OneToOneField(
        "models.Stream", related_name="board", on_delete=fields.CASCADE
    )
    stream_id: int
    message_id = fields.BigIntField()
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "board_messages"


class LiveMessage(Model):
    # A private message whose buttons act on a stream (a fighter's submission form), one per
    # stream and `key`: the bot closes the stored one when it sends another, so a user never
    # holds two live copies (engine/services/live.py).

    id = fields.IntField(primary_key=True)
    stream: fields.ForeignKeyRelation[Stream] = fields.ForeignKeyField(
        "models.Stream", related_name="live_messages", on_delete=fields.CASCADE
    )
    stream_id: int
    key = fields.CharField(max_length=32)
    chat_id = fields.BigIntField()
    message_id = fields.BigIntField()
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "live_messages"
        unique_together = (("stream", "key"),)


class OutboxItem(Model):
    # What must follow a committed step — live pushes, chat board updates, chat messages —
    # written in the step's own transaction and delivered after the commit; `delivered_at`
    # stays NULL until it was (a restart delivers what a crash left: engine.services.outbox).

    id = fields.BigIntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="outbox", on_delete=fields.CASCADE
    )
    game_id: int
    notes: list[Any] = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)
    delivered_at = fields.DatetimeField(null=True, db_index=True)
    # Who delivers it: the worker that wrote it, at once; a row still undelivered a lease
    # after its claim was left by a stopped worker, and another one claims it anew.
    claimed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "outbox"


class OutgoingCall(Model):
    # A chat call (a message, an edit, a delete) still queued or under way when a shutdown's
    # bound ran out: sent by the next start, in `id` order per chat, then deleted
    # (bot/middlewares/flood.py, engine/services/outgoing.py).

    id = fields.BigIntField(primary_key=True)
    chat = fields.CharField(max_length=128)
    method = fields.CharField(max_length=64)  # the aiogram method's class name
    payload: dict[str, Any] = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)
    # Who sends it: NULL until a start (or a sweep) claims it; a claim older than the
    # outbox lease was a stopped worker's, and another one claims it anew.
    claimed_at = fields.DatetimeField(null=True)
    claimed_by = fields.CharField(max_length=64, null=True)

    class Meta:
        table = "outgoing_call"


class SentCall(Model):
    # The message id Telegram gave a journaled post (its OutgoingCall row's id): a handler
    # that went on before the post was sent holds the row's id, negated, in its place
    # (bot/middlewares/flood.py), and a later call naming it is sent with the real one.
    # Rows older than a day are pruned.

    id = fields.BigIntField(primary_key=True, generated=False)
    message_id = fields.BigIntField()
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)

    class Meta:
        table = "sent_call"


class SavedCharacter(Model):
    # A game's library of characters and NPC templates (the sheet of the game's rule system
    # as JSON, fresh state). owner_id NULL = an NPC template; count > 1 = a group (of Extras).
    # `key` is the normalised name, unique per game.

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="characters", on_delete=fields.CASCADE
    )
    game_id: int
    key = fields.CharField(max_length=255)
    name = fields.CharField(max_length=255)
    # The rule system whose sheet `data` is (a game keeps one system; stored so that a
    # library row never reaches another system's engine); always written by the system's
    # services. Rows older than the column got the one system there was then (0004).
    system = fields.CharField(max_length=16)
    owner_id = fields.BigIntField(null=True)
    count = fields.IntField(default=1, db_default=1)
    data: dict[str, Any] = fields.JSONField()
    created_by = fields.BigIntField()
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "saved_characters"
        unique_together = (("game", "key"),)


class RollLog(Model):
    id = fields.BigIntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField(
        "models.User", related_name="rolls", on_delete=fields.CASCADE
    )
    user_id: int
    chat_id = fields.BigIntField()
    topic_id = fields.BigIntField(default=0, db_default=0)
    game: fields.ForeignKeyNullableRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="rolls", null=True, on_delete=fields.SET_NULL
    )
    game_id: int | None
    command = fields.CharField(max_length=32)
    args = fields.TextField()
    result: dict[str, Any] = fields.JSONField()
    hidden = fields.BooleanField(default=False, db_default=False)
    salt = fields.CharField(max_length=64, null=True)
    receipt = fields.CharField(max_length=64, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    revealed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "roll_log"
        indexes = (("chat_id", "topic_id"),)


class PendingDelivery(Model):
    # A hidden roll still to be sent privately to a user (e.g. the GM had not started the bot).

    id = fields.BigIntField(primary_key=True)
    roll: fields.ForeignKeyRelation[RollLog] = fields.ForeignKeyField(
        "models.RollLog", related_name="deliveries", on_delete=fields.CASCADE
    )
    roll_id: int
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField(
        "models.User", related_name="pending_deliveries", on_delete=fields.CASCADE
    )
    user_id: int
    created_at = fields.DatetimeField(auto_now_add=True)
    delivered_at = fields.DatetimeField(null=True)

    class Meta:
        table = "pending_deliveries"
        unique_together = (("roll", "user"),)


class ReceivedUpdate(Model):
    # An update Telegram gave us and we have not finished handling: stored before it is
    # acknowledged (the webhook's 200, the polling offset), deleted once handled
    # (engine/services/inbox.py). `lane` is its chat: a chat's updates are handled in order.

    update_id = fields.BigIntField(primary_key=True, generated=False)
    lane = fields.CharField(max_length=64)
    payload = fields.TextField()  # the update's JSON as Telegram sent it
    received_at = fields.DatetimeField()
    # Who handles it (as OutgoingCall): a claim older than the lease was a stopped worker's.
    claimed_at = fields.DatetimeField(null=True)
    claimed_by = fields.CharField(max_length=64, null=True)

    class Meta:
        table = "received_update"


class ProcessedUpdate(Model):
    # Telegram update ids already handled (webhook redeliveries are dropped).

    update_id = fields.BigIntField(primary_key=True, generated=False)
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)

    class Meta:
        table = "processed_updates"


class PrivateSelection(Model):
    # The game a user's rolls in the private chat with the bot belong to.

    # One row per user (unique). Not the primary key itself: Tortoise 1.1 migrations keep
    # re-detecting a OneToOneField primary key as changed.
    id = fields.IntField(primary_key=True)
    user: fields.OneToOneRelation[User] = fields.OneToOneField(
        "models.User", related_name="private_selection", on_delete=fields.CASCADE
    )
    user_id: int
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField(
        "models.Game", related_name="private_selections", on_delete=fields.CASCADE
    )
    game_id: int
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "private_selections"


class GameSettings(Model):
    # A game's options set by its GM; a game without a row has the defaults
    # (engine/services/game_settings.py).
    id = fields.IntField(primary_key=True)
    game: fields.OneToOneRelation[Game] = fields.OneToOneField(
        "models.Game", related_name="settings", on_delete=fields.CASCADE
    )
    game_id: int
    time_zone = fields.CharField(max_length=64, null=True)  # IANA name; NULL = the default
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "game_settings"
