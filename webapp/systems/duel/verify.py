"""The verification page of a duel turn's receipts (issue 26 item 3): the topic gets one
short line per receipt («🔓 Бьорн: квитанция f227-802d-4ccf ✓ сходится») with a link here,
``/verify/d<game>-<thread>-<n>-<turn>-<code>-<mac>``; the page (webapp/static/verify/, the
same as a hidden roll's) shows the exact hashed text ``salt|content`` — the choices of the
submission, or for a turn sealed with its dice the submission without the comment to the GM
(engine/duel/submission.py ``receipt_payload``) — the receipt, and
the terminal command, and the browser computes the SHA-256 itself. A turn not published yet
is not found, whoever asks; the MAC keeps strangers from walking through the games."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Any

from aiohttp import web

from engine.duel import dice_hash
from engine.duel.dice import dice_message, faces_of, mixed_receipts
from engine.duel.proposal import Published, Sealed
from engine.duel.submission import Submission
from engine.receipt import receipt_payload, short_code
from engine.services.duel import duel_at
from webapp.i18n import N_, gettext, pick_locale
from webapp.keys import LINK_SECRET

PATTERN = r"d[0-9]{1,18}-[0-9]{1,18}-[0-9]{1,9}-[0-9]{1,9}-[0-9a-f]{12}-[a-z2-7]{12}"
_TOKEN = re.compile(r"d([0-9]+)-([0-9]+)-([0-9]+)-([0-9]+)-([0-9a-f]{12})-([a-z2-7]{12})")
TEXTS = {
    "title": N_("Duel, turn {turn}: the receipt of {name}"),
    "who": N_("Sealed before the reveal; the topic saw its code then."),
    "code": N_("Receipt code (it was in the topic before the reveal):"),
    "receipt": N_("Receipt (SHA-256):"),
    "payload": N_("The hashed text (you may edit it and see the check fail):"),
    "match": N_("✓ The SHA-256 of this text is the receipt: the turn was not changed."),
    "mismatch": N_("✗ The SHA-256 of this text is not the receipt."),
    "computed": N_("SHA-256 of the text:"),
    "terminal": N_("The same check in a terminal:"),
    "unsupported": N_("This browser cannot compute SHA-256 here: use the terminal command."),
    "dice_title": N_("The dice of this turn"),
    "dice_seed": N_("The turn's seed, revealed with the turn:"),
    "dice_hash": N_(
        "Its SHA-256, as the topic got it when the turn opened, before anyone chose "
        "(compare it with that message):"
    ),
    "dice_receipts": N_(
        "The dice were drawn once both turns were sealed, from the seed and both sealed "
        "receipts (the first fighter's first):"
    ),
    "dice_rule": N_(
        "Each die is 1 + (HMAC-SHA256(seed, text) mod its sides), the text being "
        "«turn|fighter|slot», followed by «|receipt|receipt» when the receipts are shown "
        "above; this browser computes every one of this submission:"
    ),
    "dice_match": N_(
        "✓ The seed's SHA-256 is the posted hash, and every die of this submission comes "
        "from it: neither the host after the choices nor the player picked them."
    ),
    "dice_mismatch": N_("✗ The seed or a die does not check out."),
}


def shell_command(payload: str) -> str:
    """``printf %s '<payload>' | sha256sum``, single-quoted for a POSIX shell (as
    webapp/receipts.py's, which imports this module)."""
    return "printf %s '" + payload.replace("'", "'\\''") + "' | sha256sum"


def _mac(secret: bytes, body: str) -> str:
    digest = hmac.new(secret, f"duel:{body}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:12].lower()


def verify_path(secret: bytes, game_id: int, stream: str, turn: int, receipt: str) -> str:
    """The page of one receipt of a published turn of the duel ``stream``."""
    _, thread, number = stream.split(":")
    body = f"d{game_id}-{thread}-{number}-{turn}-{receipt[:12].lower()}"
    return f"/verify/{body}-{_mac(secret, body)}"


def _sealed(turn: Published, code: str) -> Sealed | None:
    subs = {s.fighter: s for s in turn.proposal.submissions}
    revealed = [Sealed(subs[r.fighter], r.salt, r.receipt) for r in turn.reveals]
    return next((s for s in (*revealed, *turn.replaced) if s.receipt.startswith(code)), None)


def _dice(turn: Published, sub: Submission) -> dict[str, Any] | None:
    """The turn's dice seed, its hash, the two sealed receipts mixed in and each die of the
    submission with the text its HMAC is of (engine/duel/dice.py): the page builds the text
    and checks each die itself. None for a turn drawn without a seed (a duel stored before
    the seeds) and for a changed submission whose dice were never drawn."""
    if not turn.seed or not sub.drawn or not sub.rolls:
        return None
    receipts = mixed_receipts(turn)
    items = [
        {
            "slot": slot,
            "sides": sides,
            "face": face,
            "message": dice_message(sub.turn, sub.fighter, slot, receipts),
        }
        for slot, sides, face in faces_of(sub)
    ]
    return {
        "seed": turn.seed,
        "hash": dice_hash(turn.seed),
        "turn": sub.turn,
        "fighter": sub.fighter,
        "receipts": list(receipts) if receipts else None,
        "items": items,
    }


async def data(request: web.Request) -> web.Response:
    secret = request.app.get(LINK_SECRET)
    match = _TOKEN.fullmatch(request.match_info["token"])
    if secret is None or match is None:
        raise web.HTTPNotFound()
    body = request.match_info["token"].rsplit("-", 1)[0]
    if not hmac.compare_digest(_mac(secret, body), match[6]):
        raise web.HTTPNotFound()
    game_id, thread, number, turn = (int(match[i]) for i in range(1, 5))
    view = await duel_at(game_id, f"duel:{thread}:{number}")
    if view is None or not 1 <= turn <= len(view.state.history):
        raise web.HTTPNotFound()
    sealed = _sealed(view.state.history[turn - 1], match[5])
    if sealed is None:
        raise web.HTTPNotFound()
    sub = sealed.submission
    name = view.state.fighter(sub.fighter).fighter.name
    payload = receipt_payload(sub.receipt_payload(sealed.receipt, sealed.salt), sealed.salt)
    locale = pick_locale(request.query.get("lang"), request.headers.get("Accept-Language"))
    texts = {key: gettext(locale, msgid) for key, msgid in TEXTS.items()}
    texts["title"] = texts["title"].format(turn=turn, name=name)
    answer = {
        "ok": True,
        "locale": locale,
        "texts": texts,
        "roll": {
            "id": turn,
            "code": short_code(sealed.receipt),
            "receipt": sealed.receipt,
            "payload": payload,
            "command": shell_command(payload),
        },
        "dice": _dice(view.state.history[turn - 1], sub),
    }
    return web.json_response(answer, headers={"Cache-Control": "no-store"})
