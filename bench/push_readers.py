"""Open leaderboards on the push server (public/push.py), for bench/national.py: COUNT
connections to PATH, each an open page's stream, noting when each new version's region
reaches it. Written to OUT as JSON: per page, when it was connected and [[version,
time.monotonic()], ...]; the connections' times to the first byte, and what went
wrong.

The pages take the stream uncompressed and only look for each region's id (its
versions), so the clients' own CPU stays small beside the server's on a shared machine;
the server sends every page the same bytes either way.

    python bench/push_readers.py HOST PORT PATH COUNT SECONDS OUT
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time

ID = re.compile(rb"\nid: (\d+)\.")
SPREAD = 5.0  # seconds over which the pages open, as a crowd does


async def page(host: str, port: int, path: str, until: float, found: dict) -> None:
    shown: list[tuple[int, float]] = []
    opened: dict = {"connected": None, "shown": shown}
    found["pages"].append(opened)
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=2**20)
    except OSError as error:
        found["errors"].append(f"connect: {error}")
        return
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
        "Accept-Encoding: identity\r\nAccept-Language: en\r\n\r\n"
    )
    writer.write(request.encode())
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        status = int(head.split(b" ", 2)[1])
        if status != 200:
            found["errors"].append(f"status {status}")
            return
        opened["connected"] = time.monotonic()
        found["connect"].append(opened["connected"] - started)
        tail = b""
        while (left := until - time.monotonic()) > 0:
            try:
                chunk = await asyncio.wait_for(reader.read(2**16), left)
            except TimeoutError:
                break
            if not chunk:
                found["errors"].append("closed by the server")
                break
            now = time.monotonic()
            data = tail + chunk
            for match in ID.finditer(data):
                version = int(match.group(1))
                if not shown or version > shown[-1][0]:
                    shown.append((version, now))
            tail = data[-40:]
    except (OSError, asyncio.IncompleteReadError, TimeoutError) as error:
        found["errors"].append(f"read: {error!r}")
    finally:
        writer.close()


async def main(host: str, port: int, path: str, count: int, seconds: float, out: str) -> None:
    until = time.monotonic() + seconds
    found: dict = {"pages": [], "connect": [], "errors": []}
    tasks = []
    for _ in range(count):
        tasks.append(asyncio.create_task(page(host, port, path, until, found)))
        await asyncio.sleep(SPREAD / count)
    await asyncio.gather(*tasks)
    with open(out, "w") as file:
        json.dump(found, file)


if __name__ == "__main__":
    host, port, path, count, seconds, out = sys.argv[1:7]
    asyncio.run(main(host, int(port), path, int(count), float(seconds), out))
