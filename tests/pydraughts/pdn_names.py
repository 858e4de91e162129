#!/usr/bin/env python3
"""Hostile DXP names in Polydam's PDN file, read back by pydraughts' PDN reader.

    python3 tests/pydraughts/pdn_names.py --polydam target/debug/polydam

A DXP peer chooses its name (32 bytes of the GAMEREQ): a newline in it once split a
`[White "..."]` tag over two lines, and pydraughts then read 1 game of 5. The script starts
`polydam dxp --listen 127.0.0.1:0 --connections 1 --depth 1` (a follower), connects as a raw
DXP client (loopback only) and plays five short games, each under a name holding a line
break, a quote, a backslash, an escape sequence or a carriage return: a GAMEREQ (Polydam plays
Black), the move 32-28, Polydam's answer, then a GAMEEND. It then reads Polydam's PDN file with
pydraughts' `PDNReader` and checks that it holds five games, each with its two moves, result
`*`, and a `White` tag that, with PDN's escapes (`\\"`, `\\\\`) undone, is the name sent with
each line break or control character turned into a space (PDN strings have no escape for
them). Prints one line per check and `N passed, M failed`; exits 1 on a failure.
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time

try:
    from draughts.PDN import PDNReader
except ImportError:  # pragma: no cover
    sys.stderr.write("pdn_names.py needs pydraughts: pip install -r tests/pydraughts/requirements.txt\n")
    sys.exit(2)

NAMES = [
    'Evil\n[Result "2-0"]',
    'Quote"d "name"',
    "Back\\slash\\",
    "Esc\x1b]0;title\x07\x1b[2J",
    "Tab\tCR\rLF\nend",
]
WAIT = 60.0


def gamereq(name):
    """A GAMEREQ: version 01, the name padded to 32, Polydam (the follower) Black, no clock,
    no move limit, the start position."""
    field = name.encode("ascii")[:32].ljust(32, b" ")
    return b"R01" + field + b"Z000000A"


def expected_name(name):
    """The name as Polydam keeps it (trailing whitespace cut by the GAMEREQ reader) and as
    the PDN writes it (control characters as spaces)."""
    kept = name.rstrip(" \t\n\r\x0b\x0c")
    return "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in kept)


def pdn_unescape(value):
    """A PDN string's content with `\\x` read as `x`."""
    out, escaped = [], False
    for c in value:
        if escaped:
            out.append(c)
            escaped = False
        elif c == "\\":
            escaped = True
        else:
            out.append(c)
    return "".join(out)


class Peer:
    """A raw DXP connection: messages ended by NUL."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        self.buf = b""

    def send(self, message):
        self.sock.sendall(message + b"\0")

    def recv(self):
        while b"\0" not in self.buf:
            data = self.sock.recv(4096)
            if not data:
                raise RuntimeError("the connection closed")
            self.buf += data
        message, self.buf = self.buf.split(b"\0", 1)
        return message

    def recv_kind(self, kind):
        """The next message of `kind` (CHATs passed over)."""
        while True:
            message = self.recv()
            if message[:1] == kind:
                return message
            if message[:1] != b"C":
                raise RuntimeError("expected %r, got %r" % (kind, message))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polydam", required=True, help="the polydam program")
    args = parser.parse_args()
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        print(("ok   " if ok else "FAIL ") + what)
        if ok:
            passed += 1
        else:
            failed += 1

    with tempfile.TemporaryDirectory() as tmp:
        pdn = os.path.join(tmp, "names.pdn")
        server = subprocess.Popen(
            [args.polydam, "dxp", "--listen", "127.0.0.1:0", "--connections", "1",
             "--depth", "1", "--hash", "1", "--timeout", "30", "--pdn", pdn],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        err = b""
        try:
            first = server.stdout.readline().decode("utf-8", "replace").strip()
            if not first.startswith("listening on 127.0.0.1:"):
                raise RuntimeError("not a listening line: %r" % first)
            port = int(first.rsplit(":", 1)[1])
            peer = Peer(port)
            for name in NAMES:
                peer.send(gamereq(name))
                acc = peer.recv_kind(b"A")
                if not acc.endswith(b"0"):
                    raise RuntimeError("game refused: %r" % acc)
                peer.send(b"M0001322800")
                peer.recv_kind(b"M")
                peer.send(b"E00")
                peer.recv_kind(b"E")
            peer.sock.close()
            _, err = server.communicate(timeout=WAIT)
        finally:
            if server.poll() is None:
                server.kill()
                server.communicate()
        err = err.decode("utf-8", "replace")
        check("panicked" not in err, "polydam dxp did not panic")
        games = PDNReader(filename=pdn).games
        check(len(games) == len(NAMES), "pydraughts reads %d games of %d" % (len(games), len(NAMES)))
        for i, name in enumerate(NAMES):
            if i >= len(games):
                break
            game = games[i]
            white = pdn_unescape(game.tags.get("White", ""))
            check(white == expected_name(name),
                  "game %d: White %r, sent %r" % (i + 1, white, name))
            check(game.tags.get("Black") == "Polydam", "game %d: Black %r" % (i + 1, game.tags.get("Black")))
            check(game.tags.get("Result") == "*" and game.game_ending == "*",
                  "game %d: result %r" % (i + 1, game.tags.get("Result")))
            check(len(game.moves) == 2 and game.moves[0] == "32-28",
                  "game %d: moves %r" % (i + 1, game.moves))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    start = time.time()
    code = main()
    sys.stderr.write("pdn_names.py: %.1f s\n" % (time.time() - start))
    sys.exit(code)
