#!/usr/bin/env python3
"""A TCP proxy that adds a fixed one-way delay in each direction (stdlib asyncio only).

Usage: python3 Benchmarks/delay-proxy.py LISTEN_PORT TARGET_HOST:TARGET_PORT --delay-ms D
                                         [--listen-host 127.0.0.1]

Stands in for `tc netem delay` where the kernel has no sch_netem: every chunk read from one
side is written to the other side D milliseconds after it arrived, in order. Each direction
keeps a queue of (deadline, bytes) and one timer for its head; deadlines come from arrival
times, so the delay does not add up across chunks: it models propagation delay, not bandwidth.
With D = 0 bytes are forwarded at once (the proxy's own overhead).

The proxy accepts a connection as soon as the kernel does, so the client's TCP handshake takes no
time; to charge it, the first client bytes leave no earlier than 2·D after the accept (the
SYN/SYN-ACK round trip) and then take D more, as on a real link. The total time of a request
matches a link with round trip 2·D; curl's time_connect shows ~0 and time_appconnect carries the
round trip instead. TLS passes through untouched.

Prints `delay-proxy: listening on HOST:PORT` on standard output once ready; ends on SIGTERM or
SIGINT. On exit it prints the number of connections and bytes forwarded to standard error.
"""
import argparse
import asyncio
import collections
import signal
import socket
import sys

# Queued bytes per direction before reading pauses: the most that is "in flight" on the modelled
# link, like a TCP window (so one connection carries at most this much per one-way delay).
READ_HIGH_WATER = 16 * 1024 * 1024
WRITE_LIMITS = dict(high=1024 * 1024, low=256 * 1024)


class Stats:
    connections = 0
    bytes_up = 0
    bytes_down = 0


class Direction:
    """One direction of a proxied connection: a delay queue feeding the destination transport."""

    def __init__(self, loop, delay, source, start_after):
        self.loop = loop
        self.delay = delay
        self.source = source            # the transport we read from (paused when we back up)
        self.destination = None         # set once the upstream connection exists
        self.queue = collections.deque()  # (deadline, bytes or None for EOF)
        self.queued_bytes = 0
        self.timer = None
        self.start_after = start_after  # earliest departure (the modelled TCP handshake)
        self.reading_paused = False
        self.writing_paused = False
        self.finished = False           # EOF delivered
        self.on_finished = None

    def push(self, data):
        now = self.loop.time()
        if self.delay == 0 and data is not None and not self.queue and self.destination is not None:
            self._write(data)
            return
        deadline = max(now, self.start_after) + self.delay
        self.queue.append((deadline, data))
        if data is not None:
            self.queued_bytes += len(data)
        self._update_reading()
        if self.timer is None and self.destination is not None:
            self._schedule()

    def attach(self, destination):
        self.destination = destination
        if self.queue and self.timer is None:
            self._schedule()

    def _schedule(self):
        self.timer = self.loop.call_at(self.queue[0][0], self._flush)

    def _flush(self):
        self.timer = None
        now = self.loop.time()
        chunks = []
        eof = False
        while self.queue and self.queue[0][0] <= now:
            _, data = self.queue.popleft()
            if data is None:
                eof = True
                break
            chunks.append(data)
            self.queued_bytes -= len(data)
        if chunks:
            self._write(chunks[0] if len(chunks) == 1 else b"".join(chunks))
        if eof:
            self.queue.clear()
            self.queued_bytes = 0
            self._deliver_eof()
            return
        self._update_reading()
        if self.queue:
            self._schedule()

    def _write(self, data):
        destination = self.destination
        if destination is None or destination.is_closing():
            return
        destination.write(data)

    def _deliver_eof(self):
        destination = self.destination
        if destination is not None and not destination.is_closing():
            try:
                if destination.can_write_eof():
                    destination.write_eof()
                else:
                    destination.close()
            except OSError:
                # The peer reset already (ENOTCONN): nothing more can be delivered.
                destination.abort()
        self.finished = True
        if self.on_finished:
            self.on_finished()

    def _update_reading(self):
        backed_up = self.writing_paused or self.queued_bytes > READ_HIGH_WATER
        if backed_up and not self.reading_paused and not self.source.is_closing():
            self.source.pause_reading()
            self.reading_paused = True
        elif not backed_up and self.reading_paused and not self.source.is_closing():
            self.source.resume_reading()
            self.reading_paused = False

    def set_writing_paused(self, paused):
        self.writing_paused = paused
        self._update_reading()

    def close(self):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.queue.clear()


class Upstream(asyncio.Protocol):
    """The connection to the target; feeds the downstream (server → client) direction."""

    def __init__(self, client):
        self.client = client

    def connection_made(self, transport):
        transport.set_write_buffer_limits(**WRITE_LIMITS)
        self.transport = transport

    def data_received(self, data):
        Stats.bytes_down += len(data)
        self.client.down.push(data)

    def eof_received(self):
        self.client.down.push(None)
        return True  # keep the write side open until the client's EOF is delivered

    def pause_writing(self):
        self.client.up.set_writing_paused(True)

    def resume_writing(self):
        self.client.up.set_writing_paused(False)

    def connection_lost(self, exc):
        self.client.upstream_lost(exc)


class Client(asyncio.Protocol):
    """An accepted client connection; feeds the upstream (client → server) direction."""

    def __init__(self, target, delay):
        self.target = target
        self.delay = delay
        self.upstream = None
        self.closed = False

    def connection_made(self, transport):
        Stats.connections += 1
        loop = asyncio.get_running_loop()
        transport.set_write_buffer_limits(**WRITE_LIMITS)
        self.transport = transport
        accepted = loop.time()
        self.up = Direction(loop, self.delay, transport, start_after=accepted + 2 * self.delay)
        self.down = None  # made once the upstream transport exists
        self.up.on_finished = self._maybe_done
        loop.create_task(self._connect(loop))

    async def _connect(self, loop):
        host, port = self.target
        try:
            transport, protocol = await loop.create_connection(lambda: Upstream(self), host, port)
        except OSError as error:
            print("delay-proxy: cannot reach %s:%d: %s" % (host, port, error), file=sys.stderr)
            self.transport.abort()
            return
        if self.closed:
            transport.abort()
            return
        self.upstream = transport
        self.down = Direction(loop, self.delay, transport, start_after=0)
        self.down.on_finished = self._maybe_done
        self.up.attach(transport)
        self.down.attach(self.transport)

    def data_received(self, data):
        Stats.bytes_up += len(data)
        self.up.push(data)

    def eof_received(self):
        self.up.push(None)
        return True

    def pause_writing(self):
        if self.down is not None:
            self.down.set_writing_paused(True)

    def resume_writing(self):
        if self.down is not None:
            self.down.set_writing_paused(False)

    def _maybe_done(self):
        if self.up.finished and self.down is not None and self.down.finished:
            self._close_all()

    def connection_lost(self, exc):
        # Orderly shutdowns arrive as EOFs (see eof_received); a transport lost without our
        # close() was reset or failed, and then both sides go at once.
        self._close_all()

    def upstream_lost(self, exc):
        self._close_all()

    def _close_all(self):
        if self.closed:
            return
        self.closed = True
        self.up.close()
        if self.down is not None:
            self.down.close()
        for transport in (self.transport, self.upstream):
            if transport is not None and not transport.is_closing():
                transport.close()


async def main():
    parser = argparse.ArgumentParser(description="TCP proxy with a one-way delay per direction.")
    parser.add_argument("listen_port", type=int)
    parser.add_argument("target", help="HOST:PORT")
    parser.add_argument("--delay-ms", type=float, required=True, help="one-way delay in milliseconds")
    parser.add_argument("--listen-host", default="127.0.0.1")
    args = parser.parse_args()
    host, _, port = args.target.rpartition(":")
    target = (host.strip("[]"), int(port))
    delay = max(args.delay_ms, 0.0) / 1000.0

    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Client(target, delay), args.listen_host, args.listen_port,
                                      reuse_address=True, backlog=1024)
    stop = loop.create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, lambda: stop.done() or stop.set_result(None))
    for sock in server.sockets:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    print("delay-proxy: listening on %s:%d -> %s:%d, one-way delay %g ms"
          % (args.listen_host, args.listen_port, target[0], target[1], args.delay_ms), flush=True)
    await stop
    server.close()
    print("delay-proxy: %d connections, %d bytes up, %d bytes down"
          % (Stats.connections, Stats.bytes_up, Stats.bytes_down), file=sys.stderr, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
