#!/usr/bin/env python3
"""What live watchers cost the server in memory, and whether it gets it back.

Starts `damka demo` (SQLite, in a temporary directory), then, ROUNDS times: opens
SUBSCRIBERS Server-Sent Events streams spread over the demo's games and events, waits until
every one has received its first event, closes them all, and waits until the server has
closed its side (no connection to its port is left open). Prints the server's
resident memory (VmRSS) before the first round, at each round's peak and after each round,
and the cost of one subscription ((peak - before) / subscribers).

    scripts/sse_memory.py                              # 15,000 subscribers, 3 rounds, release
    SUBSCRIBERS=300 ROUNDS=2 SETTLE_S=3 PROFILE=debug NO_BUILD=1 scripts/sse_memory.py   # as CI

Environment: SUBSCRIBERS=15000 ROUNDS=3 SETTLE_S=12 PORT=18451 PROFILE=release|quick-release|debug
NO_BUILD=1 CARGO_TARGET_DIR=... MAX_AFTER_GROWTH_MB=... (fail when the memory after the
last round exceeds the memory after the first round by more than this: a leak check).
"""

import asyncio
import os
import resource
import sys
import time

from demo_server import PROFILE, DemoServer

SUBSCRIBERS = int(os.environ.get("SUBSCRIBERS", "15000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
# The least time to let the memory settle after a round: jemalloc's unused pages decay over
# 10 s by default, so the figures need 12; a quick check that the script works needs less.
SETTLE_S = int(os.environ.get("SETTLE_S", "12"))
PORT = int(os.environ.get("PORT", "18451"))
# Connections opened at once: enough to fill a round in seconds, few enough that the
# listen backlog never overflows.
OPENING_AT_ONCE = 200
# Deadlines are generous: a busy 2-core machine must not fail the run by being slow.
DEADLINE_S = 300


def fail(message):
    print(f"sse_memory: {message}", file=sys.stderr)
    sys.exit(1)


def raise_descriptor_limit(needed):
    """Both this client and the server (which inherits it) hold one descriptor a stream."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        fail(f"the descriptor limit is {hard}; {needed} are needed (ulimit -Hn)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, needed), hard))


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    fail("no VmRSS for the server")


def server_connections():
    """The server's side of open connections to PORT (established, or closed by the client
    and not yet by the server)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as rows:
            next(rows)
            for row in rows:
                fields = row.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == PORT and fields[3] in ("01", "08"):
                    count += 1
    return count


def stream_paths(server):
    """Every demo game's stream and every event's, watched in turn."""
    games = server.every_item("/api/v1/games")
    events = server.every_item("/api/v1/events")
    paths = [f"/api/v1/games/{g['id']}/stream" for g in games]
    paths += [f"/api/v1/events/{e['id']}/stream" for e in events]
    if not paths:
        fail("the demo has no games or events to watch")
    return paths


async def subscribe(path, opening):
    """A stream that has received its first event (its state): held open until closed."""
    async with opening:
        reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"{path}: {head.splitlines()[0].decode()}")
        # The body is chunked; the first event's name is what proves the stream began.
        seen = b""
        while b"\nevent: " not in seen:
            chunk = await reader.read(65536)
            if not chunk:
                raise RuntimeError(f"{path}: closed before its first event")
            # Keep only a tail: the marker may straddle two reads, the data need not be kept.
            seen = seen[-16:] + chunk
        return writer


async def one_round(paths):
    opening = asyncio.Semaphore(OPENING_AT_ONCE)
    tasks = [subscribe(paths[i % len(paths)], opening) for i in range(SUBSCRIBERS)]
    writers = await asyncio.wait_for(asyncio.gather(*tasks), DEADLINE_S)
    return writers


def settle(pid):
    """Waits until the server has closed every stream, then until its memory stops falling
    (jemalloc's background threads return unused pages over about ten seconds)."""
    deadline = time.monotonic() + DEADLINE_S
    while server_connections() > 0:
        if time.monotonic() > deadline:
            fail(f"the server still holds {server_connections()} connections")
        time.sleep(0.2)
    samples = [rss_mb(pid)]
    # At least SETTLE_S seconds, then steady: the last samples (five, a second apart)
    # within 2 MB; at most 90 s.
    steady = min(5, SETTLE_S)
    while len(samples) < 90 and not (
        len(samples) >= SETTLE_S and max(samples[-steady:]) - min(samples[-steady:]) < 2.0
    ):
        time.sleep(1)
        samples.append(rss_mb(pid))
    return samples[-1]


def main():
    raise_descriptor_limit(SUBSCRIBERS + 1024)
    # Every subscriber here is 127.0.0.1: lift the per-address caps for this server.
    caps = {
        "DAMKA_MAX_CONNECTIONS_PER_ADDRESS": str(SUBSCRIBERS + 1000),
        "DAMKA_MAX_STREAMS_PER_ADDRESS": str(SUBSCRIBERS + 1000),
    }
    with DemoServer("sse_memory", PORT, caps) as server:
        paths = stream_paths(server)
        # One stream first, so that what every process sets up once (the hub, the runtime's
        # buffers) is in the "before" figure.
        asyncio.run(warm_up(paths[0]))
        before = settle(server.pid)
        print(f"== {SUBSCRIBERS} subscribers over {len(paths)} streams, {ROUNDS} rounds "
              f"({PROFILE} build)")
        print(f"before: {before:.1f} MB")
        afters = []
        for number in range(1, ROUNDS + 1):
            started = time.monotonic()
            peak = asyncio.run(hold_round(paths, server.pid))
            after = settle(server.pid)
            afters.append(after)
            per = (peak - before) * 1024 / SUBSCRIBERS
            print(f"round {number}: peak {peak:.1f} MB ({per:.1f} KB a subscriber), "
                  f"after {after:.1f} MB ({time.monotonic() - started:.1f} s)", flush=True)
        growth = afters[-1] - afters[0]
        print(f"after the last round: {afters[-1]:.1f} MB; "
              f"{growth:+.1f} MB since the first round's end")
        allowed = os.environ.get("MAX_AFTER_GROWTH_MB")
        if allowed is not None and growth > float(allowed):
            fail(f"memory after the rounds grew by {growth:.1f} MB (at most {allowed})")


async def warm_up(path):
    writer = await subscribe(path, asyncio.Semaphore(1))
    writer.close()


async def hold_round(paths, pid):
    writers = await one_round(paths)
    peak = rss_mb(pid)
    for writer in writers:
        writer.close()
    await asyncio.gather(*(w.wait_closed() for w in writers), return_exceptions=True)
    return peak


if __name__ == "__main__":
    main()
