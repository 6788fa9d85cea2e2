"""The client side of bench/live.py, in a process of its own that imports nothing but
aiohttp (a small heap): N WebSockets of one game, the GM's «Дальше» POSTs and the baseline's
blasts. Reads its settings as JSON on stdin, writes the latencies as JSON on stdout.

The garbage collector is off while it measures (it collects between rounds): its own pauses
would be counted as the server's. Run by bench/live.py, not by hand.
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import sys
import time
from typing import Any

import aiohttp


class Clients:
    def __init__(self, base: str, gtoken: str, inits: list[str], gm_init: str) -> None:
        self.base, self.gtoken, self.inits, self.gm_init = base, gtoken, inits, gm_init
        self.arrivals: list[float] = []
        self.want: str | None = None
        self.done = asyncio.Event()
        self.sizes: list[int] = []
        self.started: list[float] = []  # time.perf_counter(): the same clock as the server's

    async def connect(self, session: aiohttp.ClientSession, init: str) -> Any:
        ws = await session.ws_connect(
            f"{self.base}/api/games/{self.gtoken}/ws",
            headers={"Authorization": "tma " + init},
            max_msg_size=0,
        )
        snapshot = json.loads((await ws.receive(timeout=120)).data)
        assert snapshot["type"] == "snapshot", snapshot
        return ws

    async def read(self, ws: Any) -> None:
        async for msg in ws:
            data = json.loads(msg.data)  # parsed: part of what is measured
            if data.get("type") == self.want:
                self.arrivals.append(time.perf_counter())
                if self.want != "blast":
                    self.sizes.append(len(msg.data.encode()))
                if len(self.arrivals) == len(self.inits):
                    self.done.set()

    async def round(
        self, session: aiohttp.ClientSession, want: str, path: str, body: Any
    ) -> tuple[list[float], float]:
        gc.collect()
        self.arrivals, self.sizes, self.want = [], [], want
        self.done.clear()
        started = time.perf_counter()
        headers = {"Authorization": "tma " + self.gm_init}
        async with session.post(self.base + path, json=body, headers=headers) as response:
            assert response.status == 200, await response.text()
            answered = time.perf_counter()
        await asyncio.wait_for(self.done.wait(), timeout=120)
        await asyncio.sleep(0.05)  # let the server's writers go idle before the next round
        self.started.append(started)
        return [(t - started) * 1000 for t in self.arrivals], (answered - started) * 1000

    async def run(self, deals: int) -> dict[str, Any]:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            sockets = []
            for i in range(0, len(self.inits), 25):
                batch = self.inits[i : i + 25]
                sockets += await asyncio.gather(*(self.connect(session, x) for x in batch))
            readers = [asyncio.create_task(self.read(ws)) for ws in sockets]
            gc.disable()
            deal_path = f"/api/games/{self.gtoken}/encounter"
            await self.round(session, "encounter", deal_path, {"command": "next"})  # warm-up
            size = int(statistics.median(self.sizes))
            await self.round(session, "blast", "/bench/blast", {"size": size})
            out: dict[str, Any] = {"deal": [], "blast": [], "post": [], "size": size, "sizes": []}
            for _ in range(deals):
                latencies, post = await self.round(
                    session, "encounter", deal_path, {"command": "next"}
                )
                out["deal"] += latencies
                out["post"].append(post)
                out["sizes"] = sorted(set(self.sizes))
                latencies, _ = await self.round(session, "blast", "/bench/blast", {"size": size})
                out["blast"] += latencies
            out["started"] = self.started
            gc.enable()
            for ws in sockets:
                await ws.close()
            for task in readers:
                task.cancel()
            return out


def main() -> None:
    config = json.load(sys.stdin)
    clients = Clients(config["base"], config["gtoken"], config["inits"], config["gm_init"])
    json.dump(asyncio.run(clients.run(config["deals"])), sys.stdout)


if __name__ == "__main__":
    main()
