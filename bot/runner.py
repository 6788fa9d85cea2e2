"""Start-up and shutdown of the whole process: database, bot, dispatcher and web server."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING

from aiohttp import web

from bot.settings import Settings

if TYPE_CHECKING:
    from aiogram import Bot, Dispatcher

    from bot.intake import Intake
    from bot.middlewares.flood import FloodControl
    from bot.miniapp import MiniApp
    from bot.miniapp_hooks import ChatHooks
    from bot.playground.play import Playground
    from engine.services.notify import Notifier
    from engine.services.outgoing import Journal, Kept

log = logging.getLogger("kosti")

# Telegram re-delivers an update for at most a day; ids older than this cannot come back.
UPDATE_IDS_KEPT = timedelta(days=2)
PRUNE_EVERY_SECONDS = 3600
# Once the shutdown's bound ran out, how long the handlers still running get to finish
# against the outgoing queue's stand-in answers (what they post is kept, not sent).
KEEP_GRACE_SECONDS = 3.0


async def send_kept_calls(bot: Bot, lease: timedelta | None) -> int:
    """Send the chat calls the last shutdown kept (engine/services/outgoing.py)."""
    from bot.middlewares.flood_kept import send_kept
    from engine.services import outgoing

    calls = await outgoing.claim(lease=lease)
    return await send_kept(bot, calls, outgoing.done) if calls else 0


async def prune_update_ids_forever() -> None:
    from engine.services import outbox, outgoing, prune_updates

    while True:
        try:
            removed = await prune_updates(UPDATE_IDS_KEPT)
            log.debug("pruned %d old update ids", removed)
            await outbox.prune_delivered()
            await outgoing.prune_sent()
        except Exception:  # a hiccup of the database must not stop the bot
            log.exception("pruning update ids failed")
        await asyncio.sleep(PRUNE_EVERY_SECONDS)


async def sweep_outbox_forever(
    lease: timedelta, bot: Bot, intake: Intake, journal: Journal
) -> None:
    """Renew this worker's claims on the updates and chat calls it holds; deliver what a
    stopped worker left undelivered once its lease ran out, send the chat calls it left,
    handle the updates it left (several workers; with one process the start-up does it)."""
    from engine.services import outbox
    from engine.services.metrics import read_backlogs

    while True:
        await asyncio.sleep(lease.total_seconds() / 3)
        try:  # on its own: a failure here must not hold up what follows
            await read_backlogs()
        except Exception:
            log.exception("the delivery backlogs could not be read")
        try:
            await journal.refresh()
            await intake.inbox.refresh()
            if taken := await intake.resume(lease):
                log.info("took %d update(s) left by a stopped worker", taken)
            if taken := await outbox.deliver_pending(lease=lease):
                log.info("delivered %d outbox rows left by a stopped worker", taken)
            if sent := await send_kept_calls(bot, lease):
                log.info("sent %d chat call(s) kept by a stopped worker", sent)
        except Exception:  # a hiccup of the database must not stop the bot
            log.exception("the outbox sweep failed")


def watch_queues(worker: str, intake: Intake, flood: FloodControl) -> None:
    """What /metrics reads of this worker's queues when scraped."""
    from engine.services.metrics import QUEUED, WORKER, watch

    WORKER.info({"worker": worker})
    watch(QUEUED.labels("lanes"), lambda: intake.queued)
    watch(QUEUED.labels("in_flight"), lambda: intake.active)
    watch(QUEUED.labels("chat_calls"), lambda: sum(len(c.calls) for c in flood.chats.values()))
    watch(QUEUED.labels("chats"), lambda: len(flood.chats))


async def prepare_database(settings: Settings) -> None:
    from engine.store.db import init_db, migrate

    path = settings.sqlite_path()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    await migrate(settings.database_url)
    await init_db(settings.database_url)


async def run(
    settings: Settings, *, stop: asyncio.Event | None = None, playground: Playground | None = None
) -> None:
    """Run the bot (polling, webhook, or the playground's page) and the web server until
    `stop` is set or a signal."""
    from engine.services.notify import Notifier, using

    # The process's notifier: the bot's handlers (polling), the outbox's redelivery and the
    # web app's requests tell it; the web app's live boards and the chat hooks listen.
    notifier = Notifier()
    with using(notifier):
        await _run(settings, notifier, stop, playground)


@dataclass
class _Process:
    """What one run holds: built by `_assemble`, started by `_start` and `_receive`, let go
    by `_stop_taking`, `_finish_in_flight` and `_hand_over`, in that order."""

    settings: Settings
    playground: Playground | None
    bot: Bot
    dispatcher: Dispatcher
    intake: Intake
    flood: FloodControl
    journal: Journal
    hooks: ChatHooks
    miniapp: MiniApp
    runner: web.AppRunner
    background: list[asyncio.Task[None]] = field(default_factory=list)
    polling: asyncio.Task[None] | None = None

    @property
    def lease(self) -> timedelta:
        return timedelta(seconds=self.settings.outbox_lease)

    @property
    def left_lease(self) -> timedelta | None:
        """Alone, the rows left are the last run's; among several workers, only those nobody
        holds or whose lease ran out (the others' rows may be under way)."""
        return self.lease if self.settings.redis_url is not None else None


async def _run(
    settings: Settings,
    notifier: Notifier,
    stop: asyncio.Event | None,
    playground: Playground | None = None,
) -> None:
    stop = stop or _stop_on_signals()
    await prepare_database(settings)
    process = _assemble(settings, notifier, playground)
    await process.runner.setup()
    unsubscribe = notifier.subscribe(process.hooks.on_change)
    untell = notifier.tell_in_step(process.hooks.tell_in_step)
    try:
        await _start(process)
        await _receive(process)
        await _wait(stop, process.polling)
    finally:
        await _stop_taking(process)
        bound = await _finish_in_flight(process)
        unsubscribe()
        untell()
        await _hand_over(process, bound)
        log.info("stopped")


def _assemble(settings: Settings, notifier: Notifier, playground: Playground | None) -> _Process:
    """The bot, its dispatcher and intake, the chat hooks and the web app, built (nothing
    started)."""
    from bot.app import build_dispatcher, create_bot, flood_control
    from bot.intake import Intake
    from bot.miniapp import MiniApp
    from bot.miniapp_hooks import ChatHooks
    from engine.services.inbox import Inbox
    from engine.services.outgoing import Journal
    from engine.store.redis import worker_id
    from webapp.app import create_app

    limits = None
    if settings.redis_url:  # several workers keep Telegram's limits together
        from bot.middlewares.flood_limits import RedisLimits
        from engine.store.redis import connect

        limits = RedisLimits(connect(settings.redis_url), worker_id())
    # The playground answers the Bot API in memory and feeds the page's updates itself.
    session = playground.session if playground else None
    worker = worker_id()
    # Every chat call is written down before it is queued, and a group's messages leave about
    # one a second (not in the playground: its database and its chats go with it, and its
    # Bot API is in memory).
    journal = Journal(worker)
    live = playground is None
    flood = flood_control(settings, limits, journal=journal if live else None, pace=live)
    bot = create_bot(settings, flood=flood, session=session)
    dispatcher = build_dispatcher(settings)
    intake = Intake(dispatcher, bot, Inbox(worker), slots=settings.max_updates_in_flight)
    watch_queues(worker, intake, flood)
    # Rolls, reveals and board steps made in the Mini App appear in the chat.
    miniapp = MiniApp.from_settings(settings)
    hooks = ChatHooks.of(bot, dispatcher, miniapp)
    app = create_app(
        settings,
        on_roll=hooks.on_roll,
        on_reveal=hooks.on_reveal,
        chat_step=hooks.chat_step,
        notifier=notifier,
        routes=playground.routes if playground else None,
        intake=intake,
    )
    runner = web.AppRunner(app)
    return _Process(
        settings, playground, bot, dispatcher, intake, flood, journal, hooks, miniapp, runner
    )


async def _start(process: _Process) -> None:
    """What the last run left is taken up first, then the port and the background tasks."""
    from bot.systems import registry
    from engine.services import outbox

    settings, bot, intake = process.settings, process.bot, process.intake
    # What the last shutdown could not send, before any update is taken (the port is
    # not ours yet: Telegram's webhook deliveries wait).
    if sent := await send_kept_calls(bot, process.left_lease):
        log.info("sent %d chat call(s) the last run did not send", sent)
    # The updates the last run stored and did not finish, before any new one.
    if resumed := await intake.resume(process.left_lease):
        log.info("handling %d update(s) the last run did not finish", resumed)
    await web.TCPSite(process.runner, settings.host, settings.port).start()
    log.info("web server on http://%s:%s", settings.host, settings.port)
    # Only once the port is ours: a busy port must not cut a query off half-way.
    process.background.append(asyncio.create_task(prune_update_ids_forever()))
    # The start-up heap (modules, the ORM's and aiogram's classes) lives as long as the
    # process: out of the collector's full passes, which cost ~0.2 s each otherwise and
    # stall every live push they fall on (bench/live.py).
    gc.collect()
    gc.freeze()
    # What a crash left between a step's commit and its delivery (boards, chat).
    if redelivered := await outbox.deliver_pending(lease=process.left_lease):
        log.info("delivered %d outbox rows left by the last run", redelivered)
    sweep = sweep_outbox_forever(process.lease, bot, intake, process.journal)
    process.background.append(asyncio.create_task(sweep))
    # the rule systems' own timers (a turn's deadline), read from the stored games
    process.background += [
        asyncio.create_task(s.background(bot)) for s in registry.installed() if s.background
    ]


async def _receive(process: _Process) -> None:
    """The commands and the menu button set, then the updates taken: the webhook, the
    playground's page, or long polling (`process.polling`)."""
    from aiogram.exceptions import TelegramAPIError

    from bot.commands import set_commands, set_menu_button
    from webapp.app import webhook_path

    settings, bot, dispatcher = process.settings, process.bot, process.dispatcher
    await set_commands(bot)
    try:
        await set_menu_button(bot, process.miniapp, settings.default_locale)
    except TelegramAPIError as error:  # a refused URL must not keep the bot down
        log.warning("the Mini App menu button was refused: %s", error)
    if settings.webhook_url:
        public = settings.webhook_url.rstrip("/")
        if not public.endswith(webhook_path(settings)):
            public += webhook_path(settings)
        await bot.set_webhook(
            public,
            secret_token=settings.webhook_secret_value(),
            allowed_updates=dispatcher.resolve_used_update_types(),
        )
        log.info("webhook mode: %s", public)
    elif process.playground is not None:
        url = f"http://{settings.host}:{settings.port}/"
        await process.playground.started(bot, dispatcher, url)
    else:
        await bot.delete_webhook()
        used = dispatcher.resolve_used_update_types()
        process.polling = asyncio.create_task(process.intake.poll(used))
        log.info("long polling started")


async def _stop_taking(process: _Process) -> None:
    """No new work: the background tasks, the playground, polling and the web server end."""
    # What is queued behind Telegram's windows goes out now rather than never (and
    # nothing below waits for a window: the playground's demo, the updates in flight).
    process.flood.flush()
    for task in process.background:
        task.cancel()
    if process.playground is not None:
        await process.playground.stop()
    for task in process.background:
        with suppress(asyncio.CancelledError):
            await task
    if process.polling is not None:
        process.polling.cancel()  # a batch not stored yet is asked for again by the next start
        with suppress(asyncio.CancelledError, Exception):
            await process.polling
    await process.runner.cleanup()  # no new webhook updates; the bot's session stays open


async def _finish_in_flight(process: _Process) -> float:
    """What the lanes hold is handled within the shutdown's bound; past it, the next
    start's. Returns the bound (the loop's time)."""
    settings, flood = process.settings, process.flood
    bound = asyncio.get_running_loop().time() + settings.shutdown_timeout
    if queued := await process.intake.drain(settings.shutdown_timeout):
        log.warning("stopping with %d update(s) not handled: the next start's", queued)
    in_flight = process.dispatcher["in_flight"]  # the playground's updates too
    rest = max(0.0, bound - asyncio.get_running_loop().time())
    if left := await in_flight.drained(rest):
        log.warning("stopping with %d update(s) still being handled", left)
        # The bound ran out: what they still post is kept for the next start.
        flood.keep()
        await in_flight.drained(KEEP_GRACE_SECONDS)
    return bound


async def _hand_over(process: _Process, bound: float) -> None:
    """The chat's calls sent within the bound, the rest kept for the next start; every
    connection closed."""
    from engine.services import outbox
    from engine.store.db import close_db

    flood = process.flood
    await process.hooks.wait_idle()
    if waiting := await outbox.wait_held(5):
        log.warning("%d step(s) not yet in the chat: delivered after the restart", waiting)
    # The handlers went on before their group's calls were sent: they go out now, within
    # the bound (the windows are let go).
    await flood.drained(max(0.0, bound - asyncio.get_running_loop().time()))
    flood.keep()  # what is still queued or under way
    await _store_kept(flood.take_kept(), flood.left_journaled)
    await process.bot.session.close()
    if shared := process.dispatcher.workflow_data.get("shared_updates"):
        await shared.redis.aclose()
    await flood.close()
    await outbox.flush_marks()  # the rows delivered since the last step's transaction
    await _release(process.intake, process.journal)
    await close_db()


async def _store_kept(kept: list[Kept], journaled: int) -> None:
    """Write what the journal did not hold (its writes failed, or an outbox delivery's)."""
    from engine.services import outgoing

    try:
        await outgoing.store(kept)
    except Exception:  # the database is gone: nothing more can be done
        log.exception("%d chat call(s) could not be kept for the restart", len(kept))
        kept = []
    if left := len(kept) + journaled:
        log.warning("%d chat call(s) not sent in time: sent after the restart", left)


async def _release(intake: Intake, journal: Journal) -> None:
    """What this worker still holds is the next start's, or another worker's."""
    try:
        await intake.inbox.release()
        await journal.release()
    except Exception:  # the database is gone: the lease frees them
        log.exception("could not hand over the updates and chat calls left")


async def _wait(stop: asyncio.Event, polling: asyncio.Task[None] | None) -> None:
    waiters: list[asyncio.Task[object]] = [asyncio.create_task(stop.wait())]
    if polling is not None:
        waiters.append(polling)
    done, _ = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    for task in waiters:
        if task is not polling and task not in done:
            task.cancel()
    if polling is not None and polling in done:
        polling.result()  # polling ended on its own: surface its error, if any


def _stop_on_signals() -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    return stop
