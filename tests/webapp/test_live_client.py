"""The page's live client (webapp/static/app/live.js) in real Chromium: rolls are numbered
by their ids and a new one names the game's roll before it, so a missed roll (or a reveal of
a roll the page does not have) asks for a resync; scenes pass with their stream's seq; while
a resync is on its way pushes are dropped (the snapshot holds them)."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.webapp.conftest import PLAYER_ID, TOKEN, user
from tests.webapp.test_browser import browser, server  # noqa: F401 (fixtures)
from webapp.auth import sign_init_data
from webapp.dev import LIGHT_THEME, launch_fragment

# Feeds `messages` to a LiveSocket whose socket only records what it sends.
FEED = """async (messages) => {
  // the module the page loaded (its versioned URL)
  const url = performance.getEntriesByType("resource").map((e) => e.name)
    .find((name) => name.endsWith("/live.js"));
  const { LiveSocket } = await import(url);
  const live = new LiveSocket("g1-test");
  const sent = [], events = [];
  live.stopped = true;
  live.ws = { send: (text) => sent.push(JSON.parse(text).type) };
  const onEvent = (msg) => events.push([msg.type, msg.seq]);
  live.listener = { onSnapshot() {}, onStatus() {}, onEvent };
  const log = [];
  for (const msg of messages) {
    live.receive(msg);
    log.push([live.seq, sent.length]);
  }
  return { events, sent, log };
}"""


def snap(seq: int) -> dict[str, Any]:
    return {"type": "snapshot", "seq": seq, "game": {}, "rolls": []}


async def test_roll_gaps_ask_for_a_resync_and_scenes_pass(browser, server, game, gtoken):  # noqa: F811
    context = await browser.new_context()
    page = await context.new_page()
    init = sign_init_data(TOKEN, user(PLAYER_ID), int(time.time()), start_param=gtoken)
    await page.goto(f"{server.make_url('/app/')}#{launch_fragment(init, theme=LIGHT_THEME)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=5000)
    out = await page.evaluate(
        FEED,
        [
            snap(40),
            {"type": "roll", "seq": 41, "prev": 40, "roll": {"id": 41}},  # follows
            {"type": "encounter", "stream": "encounter:2", "seq": 17, "encounter": {}},
            {"type": "roll_revealed", "seq": 12, "roll": {"id": 12}},  # an old roll: known
            {"type": "roll", "seq": 45, "prev": 44, "roll": {"id": 45}},  # 44 missed: gap
            {"type": "encounter", "stream": "encounter:2", "seq": 20, "encounter": {}},
            snap(45),  # the resync's snapshot
            {"type": "roll", "seq": 44, "prev": 41, "roll": {"id": 44}},  # late: known
            {"type": "roll_revealed", "seq": 46, "roll": {"id": 46}},  # not here: gap
        ],
    )
    assert out["events"] == [
        ["roll", 41],
        ["encounter", 17],
        ["roll_revealed", 12],
        ["roll", 44],
    ]
    assert out["sent"] == ["resync", "resync"]
    assert [seq for seq, _ in out["log"]] == [40, 41, 41, 41, 41, 41, 45, 45, 45]
    await context.close()


# Adopts a fake socket with a snapshot "fetched over HTTP", then the socket says `frames`.
ADOPT = """async ([fetched, frames, fetchedFirst]) => {
  const url = performance.getEntriesByType("resource").map((e) => e.name)
    .find((name) => name.endsWith("/live.js"));
  const { LiveSocket } = await import(url);
  const live = new LiveSocket("g1-test");
  live.stopped = true;
  const shown = [], statuses = [];
  const onSnapshot = (s) => shown.push(s.seq);
  live.listener = { onSnapshot, onStatus: (s) => statuses.push(s), onEvent() {} };
  const ws = { send() {} };
  let answer;
  const snapshot = new Promise((resolve) => { answer = resolve; });
  live.adopt({ ws, messages: [], closed: null, snapshot });
  const say = () => { for (const data of frames) ws.onmessage({ data }); };
  if (fetchedFirst) { answer(fetched); await snapshot; await null; say(); }
  else { say(); answer(fetched); await snapshot; await null; }
  return { shown, statuses, seq: live.seq };
}"""


async def test_the_http_snapshot_shows_first_and_the_sockets_same_copy_is_skipped(
    browser,  # noqa: F811
    server,  # noqa: F811
    game,
    gtoken,
):
    context = await browser.new_context()
    page = await context.new_page()
    init = sign_init_data(TOKEN, user(PLAYER_ID), int(time.time()), start_param=gtoken)
    await page.goto(f"{server.make_url('/app/')}#{launch_fragment(init, theme=LIGHT_THEME)}")
    await page.wait_for_selector("body[data-ready='1']", timeout=5000)
    text = json.dumps(snap(40))
    newer = json.dumps(snap(41))
    push = json.dumps({"type": "roll", "seq": 42, "prev": 41, "roll": {"id": 42}})
    same = await page.evaluate(ADOPT, [text, [text], True])
    assert same == {"shown": [40], "statuses": ["live"], "seq": 40}
    changed = await page.evaluate(ADOPT, [text, [newer, push], True])
    assert changed["shown"] == [40, 41] and changed["seq"] == 42
    late = await page.evaluate(ADOPT, [text, [newer], False])  # the socket's came first
    assert late == {"shown": [41], "statuses": ["live"], "seq": 41}
    refused = await page.evaluate(ADOPT, [None, [newer], True])
    assert refused["shown"] == [41]
    await context.close()
