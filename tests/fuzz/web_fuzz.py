#!/usr/bin/env python3
"""A bounded fuzzer for `polydam serve` (the web board's HTTP server and WebSocket API).

    python3 tests/fuzz/web_fuzz.py --polydam target/debug/polydam --seconds 45 --seed 1

Python 3.11 standard library only; loopback only. The script starts
`polydam serve --port 0` (127.0.0.1, a free port read from the URL it prints,
a short --idle-timeout) and, until --seconds have passed, picks one action at a
time, at random from the seed:

- HTTP: random bytes; request lines and headers mangled (methods, paths,
  versions, missing, foreign or malformed Host, huge or endless headers, bodies
  that lie about their length, upgrades with broken keys); a socket left
  half-sent and dropped.
- WebSocket: a session of random messages: valid requests with random or
  hostile values (unknown variants, bad FEN and PDN, moves, depths, move times,
  wrong types, deep nesting), random text and bytes, binary, ping and pong,
  fragmented and interleaved frames, reserved bits and opcodes, invalid UTF-8,
  frames that claim more than they carry, floods of `analyse`, `go` and `new`,
  abrupt drops. The server's replies are drained as they come.
- A sane check, at least every 2 seconds and after every session that must
  survive: `GET /` answers 200 with the page, and a fresh WebSocket answers
  `state` (skipping search reports), each within 10 seconds.

It fails (exit 1) if the server exits, or a sane check fails (retried for 10 s
when the connection limit is still full of closing pages). It prints one
summary line of figures at the end; --verbose prints each failure's detail.
Exit 2: bad usage or the server does not start.
"""

import argparse
import base64
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
import time

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
REPLY_WAIT = 10.0  # seconds a sane request may take

# Message types of the API and the field names requests use.
TYPES = ["variants", "state", "new", "load", "move", "undo", "go", "analyse", "stop", "goto",
         "comment", "result"]
FIELDS = ["variant", "fen", "pdn", "text", "path", "plies", "movetime", "depth", "type", "node",
          "multipv", "threads", "hash", "level", "time", "inc", "winner", "reason"]
SOME_FENS = [
    "W:W31-50:B1-20",
    "B:W28:B23,13",
    "W:W28:B23,13",
    "W:Wa2-h3:Ba6-h7",
    "W:WK1:BK50",
    "W:W:B",
    "X:W99:B1",
]
SOME_MOVES = ["32-28", "31-26", "19-23", "28x19", "d3-d4", "c3-d4", "a1", "pass", "", "-", "x"]


class Figures:
    """What a run did and saw."""

    def __init__(self):
        self.http_requests = 0
        self.http_statuses = {}
        self.ws_sessions = 0
        self.ws_messages = 0
        self.replies = 0
        self.error_replies = 0
        self.searches = 0
        self.closed_by_server = 0
        self.socket_errors = 0
        self.sane_checks = 0
        self.failures = []

    def status(self, code):
        self.http_statuses[code] = self.http_statuses.get(code, 0) + 1


def ws_frame(opcode, payload, fin=True, rsv=0, mask=True, claimed=None):
    """A WebSocket frame; `claimed` lies about the payload's length."""
    head = bytearray([(0x80 if fin else 0) | (rsv << 4) | (opcode & 0x0F)])
    n = len(payload) if claimed is None else claimed
    m = 0x80 if mask else 0
    if n < 126:
        head.append(m | n)
    elif n < 65536:
        head.append(m | 126)
        head += n.to_bytes(2, "big")
    else:
        head.append(m | 127)
        head += n.to_bytes(8, "big")
    if not mask:
        return bytes(head) + payload
    key = os.urandom(4)
    head += key
    repeated = (key * (len(payload) // 4 + 1))[: len(payload)]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
        len(payload), "big"
    )
    return bytes(head) + masked


class WebSocket:
    """A minimal client: the handshake, frames out, text frames in."""

    def __init__(self, addr, host=None, origin=None, timeout=REPLY_WAIT):
        self.sock = socket.create_connection(addr, timeout=timeout)
        self.buf = b""
        self.close_code = None
        key = base64.b64encode(os.urandom(16)).decode()
        host = host or f"{addr[0]}:{addr[1]}"
        lines = [
            "GET /ws HTTP/1.1",
            f"Host: {host}",
            "Connection: Upgrade",
            "Upgrade: websocket",
            "Sec-WebSocket-Version: 13",
            f"Sec-WebSocket-Key: {key}",
        ]
        if origin:
            lines.append(f"Origin: {origin}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        self.status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
        if self.status == 101:
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            if f"sec-websocket-accept: {accept}".lower().encode() not in head.lower():
                raise ConnectionError("wrong Sec-WebSocket-Accept")

    def send_raw(self, data):
        self.sock.sendall(data)

    def send_text(self, text):
        self.send_raw(ws_frame(1, text.encode("utf-8", "surrogatepass")))

    def _fill(self, need, deadline):
        while len(self.buf) < need:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply in time")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the server")
            self.buf += chunk

    def recv(self, wait):
        """The next frame as (opcode, payload) within `wait` seconds."""
        deadline = time.monotonic() + wait
        self._fill(2, deadline)
        b0, b1 = self.buf[0], self.buf[1]
        n, at = b1 & 0x7F, 2
        if n == 126:
            self._fill(4, deadline)
            n, at = int.from_bytes(self.buf[2:4], "big"), 4
        elif n == 127:
            self._fill(10, deadline)
            n, at = int.from_bytes(self.buf[2:10], "big"), 10
        self._fill(at + n, deadline)
        payload, self.buf = self.buf[at : at + n], self.buf[at + n :]
        return b0 & 0x0F, payload

    def drain(self, figures, wait=0.0):
        """Reads every reply already there (or coming within `wait`); False once closed."""
        try:
            while True:
                op, payload = self.recv(wait)
                count_reply(figures, op, payload)
                if op == 8:
                    figures.closed_by_server += 1
                    self.close_code = int.from_bytes(payload[:2], "big") if payload else None
                    return False
        except TimeoutError:
            return True
        except (ConnectionError, OSError):
            figures.closed_by_server += 1
            return False

    def expect(self, kind, figures):
        """Reads replies until one of type `kind` (search reports and errors skipped)."""
        deadline = time.monotonic() + REPLY_WAIT
        while True:
            op, payload = self.recv(max(0.0, deadline - time.monotonic()))
            count_reply(figures, op, payload)
            if op == 8:
                raise ConnectionError(f"closed while waiting for {kind}: {payload[2:]!r}")
            if op == 1 and json.loads(payload).get("type") == kind:
                return json.loads(payload)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def count_reply(figures, op, payload):
    figures.replies += 1
    if op == 1:
        try:
            if json.loads(payload).get("type") == "error":
                figures.error_replies += 1
        except ValueError:
            figures.failures.append(f"a reply that is not JSON: {payload[:80]!r}")


# --- values -----------------------------------------------------------------------------


def junk_text(rng, n=None):
    n = rng.randint(0, 60) if n is None else n
    pools = [
        "abcdefghijklmnopqrstuvwxyz0123456789",
        "-x:,WBK. ",
        "\"{}[]\\\n\t\r\0\x1b",
        "éß漢字😀\u202e\ufeff",
    ]
    pool = "".join(rng.sample(pools, rng.randint(1, len(pools))))
    return "".join(rng.choice(pool) for _ in range(n))


def junk_value(rng, depth=0):
    pick = rng.randrange(12 if depth < 4 else 8)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2, 3, 121, 2**31, -(2**63), 2**64, 10**30])
    if pick == 3:
        return rng.choice([0.0, -0.5, 0.01, 0.1, 1e-300, 1e308, 600.0, 600.0001])
    if pick in (4, 5, 6, 7):
        return junk_text(rng)
    if pick in (8, 9):
        return [junk_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {rng.choice(FIELDS): junk_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def mutate(rng, text):
    """`text` with a few characters changed, dropped or repeated."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        if not chars:
            break
        i = rng.randrange(len(chars))
        op = rng.randrange(3)
        if op == 0:
            chars[i] = rng.choice(junk_text(rng, 8) or "x")
        elif op == 1:
            del chars[i]
        else:
            chars.insert(i, chars[i] * rng.randint(1, 30))
    return "".join(chars)


def request(rng, variants):
    """One API request: mostly well formed, with values from sane to hostile."""
    kind = rng.choice(TYPES)
    msg = {"type": kind}
    sane = rng.random() < 0.6
    if kind == "new":
        msg["variant"] = rng.choice(variants) if sane else junk_value(rng)
        if rng.random() < 0.3:
            msg["fen"] = rng.choice(SOME_FENS) if sane else mutate(rng, rng.choice(SOME_FENS))
    elif kind == "load":
        if rng.random() < 0.5:
            msg["fen"] = rng.choice(SOME_FENS) if sane else mutate(rng, rng.choice(SOME_FENS))
        else:
            moves = " ".join(rng.choice(SOME_MOVES) for _ in range(rng.randint(0, 12)))
            tags = rng.choice(["", '[GameType "20"]\n', '[Variant "turkish"]\n', '[FEN "W:W28:B23"]\n'])
            pdn = f"{tags}1. {moves} *"
            msg["pdn"] = pdn if sane else mutate(rng, pdn)
    elif kind == "move":
        if rng.random() < 0.5:
            msg["text"] = rng.choice(SOME_MOVES) if sane else junk_value(rng)
        else:
            msg["path"] = [rng.choice(["32", "28", "19", "23", "d3", "d4", "a1"])
                           for _ in range(rng.randint(0, 4))] if sane else junk_value(rng)
    elif kind == "undo":
        if rng.random() < 0.5:
            msg["plies"] = rng.randint(1, 4) if sane else junk_value(rng)
    elif kind in ("go", "analyse"):
        if rng.random() < 0.5:
            msg["depth"] = rng.randint(1, 4) if sane else junk_value(rng)
        if rng.random() < 0.5 or kind == "go":
            msg["movetime"] = rng.choice([0.01, 0.05, 0.1]) if sane else junk_value(rng)
        # The page's search options: lines, threads, hash, level, clock.
        for field, values in (("multipv", [1, 2, 3, 10]), ("threads", [1, 2]), ("hash", [1, 8, 32]),
                              ("level", [0, 1, 3, 6]), ("time", [0.5, 5.0]), ("inc", [0, 0.1])):
            if rng.random() < 0.15:
                msg[field] = rng.choice(values) if sane else junk_value(rng)
    elif kind == "goto":
        msg["node"] = rng.randint(0, 40) if sane else junk_value(rng)
    elif kind == "comment":
        msg["text"] = rng.choice(["good move", "", "{brace}", "x" * 300]) if sane else junk_value(rng)
    elif kind == "result":
        if rng.random() < 0.7:
            msg["winner"] = rng.choice(["white", "black"]) if sane else junk_value(rng)
        msg["reason"] = rng.choice(["white resigned", "draw agreed", '"quoted"\n]', "x" * 300]) \
            if sane else junk_value(rng)
    if rng.random() < 0.1:
        msg[rng.choice(FIELDS + ["extra"])] = junk_value(rng)
    if rng.random() < 0.05:
        del msg["type"]
    text = json.dumps(msg, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.1:
        text = mutate(rng, text)
    return text


# --- actions ----------------------------------------------------------------------------


def http_exchange(addr, data, figures, read=True, wait=3.0):
    """Sends `data` on a fresh connection and reads what comes back (status counted)."""
    figures.http_requests += 1
    try:
        with socket.create_connection(addr, timeout=wait) as s:
            s.sendall(data)
            if not read:
                return
            try:
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            reply = b""
            while len(reply) < 1 << 20:
                chunk = s.recv(65536)
                if not chunk:
                    break
                reply += chunk
            parts = reply.split(b" ", 2)
            figures.status(int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0)
    except (OSError, TimeoutError):
        figures.socket_errors += 1


def fuzz_http(rng, addr, figures):
    host = f"127.0.0.1:{addr[1]}" if rng.random() < 0.5 else rng.choice([
        f"127.0.0.1:{addr[1]}", "localhost", f"[::1]:{addr[1]}", "evil.example", "",
        "127.0.0.1:", "[::1", "a" * 5000, "127.0.0.1.evil.example", junk_text(rng, 20),
    ])
    method = rng.choice(["GET", "GET", "HEAD", "POST", "PUT", "OPTIONS", "TRACE", "GE T", "", "\x00"])
    path = rng.choice(["/", "/board.js", "/board.css", "/ws", "/nowhere", "*", "http://evil.example/",
                       "/" + "a" * 10000, "/%00%ff", "/../../etc/passwd", junk_text(rng, 10)])
    version = rng.choice(["HTTP/1.1"] * 4 + ["HTTP/1.0", "HTTP/2.0", "HTTP/9", "", "HTTP/1.1x"])
    lines = [f"{method} {path} {version}"]
    if rng.random() < 0.9:
        lines.append(f"Host: {host}")
    for _ in range(rng.choice([0, 0, 1, 3, 200])):
        if rng.random() < 0.8:
            name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz-") for _ in range(6))
            lines.append(f"X-{name}: {rng.randbytes(12).hex()}")
        else:
            lines.append(f"X-{junk_text(rng, 5)}: {junk_text(rng)}")
    if rng.random() < 0.2:
        lines += ["Connection: Upgrade", "Upgrade: websocket",
                  f"Sec-WebSocket-Version: {rng.choice(['13', '8', 'x'])}",
                  f"Sec-WebSocket-Key: {rng.choice(['', 'AAAA', junk_text(rng, 24)])}"]
    body = b""
    if rng.random() < 0.2:
        body = os.urandom(rng.randint(0, 2000))
        lines.append(f"Content-Length: {rng.choice([len(body), len(body) + 100, -1, 'x'])}")
    if rng.random() < 0.1:
        lines.append("Transfer-Encoding: chunked")
        body = rng.choice([b"5\r\nhello\r\n0\r\n\r\n", b"zz\r\n", b"ffffffffffffffffff\r\n"])
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogatepass") + body
    pick = rng.randrange(10)
    if pick == 0:
        data = os.urandom(rng.randint(1, 4000))
    elif pick == 1:
        data = data[: rng.randint(0, len(data))]  # cut short, then closed
    elif pick == 2:
        data = bytes(b ^ (1 << rng.randrange(8)) if rng.random() < 0.02 else b for b in data)
    http_exchange(addr, data, figures, read=rng.random() < 0.9)


def fuzz_ws(rng, addr, figures, variants, sessions):
    """A WebSocket session of random messages; answers whether it must still be served."""
    figures.ws_sessions += 1
    try:
        ws = WebSocket(addr)
    except (OSError, ConnectionError, TimeoutError, ValueError, IndexError):
        figures.socket_errors += 1
        return
    if ws.status != 101:
        figures.status(ws.status)
        ws.close()
        return
    sessions.append(ws)
    try:
        ws_session(rng, ws, figures, variants)
    except (OSError, ConnectionError) as e:
        figures.failures.append(f"a session was closed by the server: {e}")
    if ws in sessions and rng.random() < 0.8:
        sessions.remove(ws)
        ws.close()


def ws_session(rng, ws, figures, variants):
    """Sends a session's messages on `ws`; checks the end unless it broke the protocol."""
    may_close = False
    for _ in range(rng.randint(1, 80)):
        pick = rng.random()
        if pick < 0.55:
            ws.send_text(request(rng, variants))
            figures.ws_messages += 1
        elif pick < 0.65:
            ws.send_text(json.dumps(junk_value(rng)) if rng.random() < 0.5 else junk_text(rng))
            figures.ws_messages += 1
        elif pick < 0.7:
            kind = rng.choice(["analyse", "go", "new", "stop", "state"])
            extra = ', "variant": "%s"' % rng.choice(variants) if kind == "new" else ""
            one = ws_frame(1, ('{"type": "%s"%s}' % (kind, extra)).encode())
            n = rng.choice([100, 1000, 5000])
            ws.send_raw(one * n)
            figures.ws_messages += n
            figures.searches += n if kind in ("go", "analyse") else 0
        elif pick < 0.75:
            ws.send_raw(ws_frame(rng.choice([2, 9, 10]), os.urandom(rng.randint(0, 125))))
            figures.ws_messages += 1
        elif pick < 0.8:
            # A text message in fragments, a ping between them.
            text = request(rng, variants).encode()
            cut = rng.randint(0, len(text))
            ws.send_raw(ws_frame(1, text[:cut], fin=False) + ws_frame(9, b"p")
                        + ws_frame(0, text[cut:]))
            figures.ws_messages += 1
        elif pick < 0.83:
            ws.send_text("x" * rng.choice([65_000, 66_000, 200_000]))
            figures.ws_messages += 1
        else:
            # Protocol faults: the server may close the connection.
            fault = rng.randrange(7)
            if fault == 0:
                ws.send_raw(ws_frame(1, b"\xff\xfe\xc0"))  # invalid UTF-8
            elif fault == 1:
                ws.send_raw(ws_frame(rng.choice([3, 4, 5, 11, 15]), b"?"))
            elif fault == 2:
                ws.send_raw(ws_frame(1, b"{}", rsv=rng.randint(1, 7)))
            elif fault == 3:
                ws.send_raw(ws_frame(0, b"orphan continuation"))
            elif fault == 4:
                ws.send_raw(ws_frame(1, b"{}", mask=False))
            elif fault == 5:
                ws.send_raw(ws_frame(1, b"short", claimed=rng.choice([200, 70_000, 2**40])))
            else:
                ws.send_raw(ws_frame(8, os.urandom(rng.randint(0, 10))))
            figures.ws_messages += 1
            may_close = True
            break
        if not ws.drain(figures):
            # 1013: the connection limit (pages of earlier sessions still closing).
            if not may_close and ws.close_code != 1013:
                figures.failures.append(
                    f"the server closed a session that broke no rule (code {ws.close_code})"
                )
            return
    if not ws.drain(figures, 0.05) or may_close:
        return
    # The connection must still be served.
    try:
        ws.send_text('{"type":"state"}')
        ws.expect("state", figures)
    except (OSError, ConnectionError, TimeoutError, ValueError) as e:
        figures.failures.append(f"a session stopped being served: {e}")


def sane_check(addr, figures):
    """`GET /` and a fresh WebSocket's `state` are answered; retried for REPLY_WAIT."""
    figures.sane_checks += 1
    deadline = time.monotonic() + REPLY_WAIT
    last = ""
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(addr, timeout=REPLY_WAIT) as s:
                s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{addr[1]}\r\nConnection: close\r\n\r\n".encode())
                reply = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    reply += chunk
            if not reply.startswith(b"HTTP/1.1 200") or b"board.js" not in reply:
                last = f"GET / answered {reply[:60]!r}"
                continue
            ws = WebSocket(addr)
            try:
                if ws.status != 101:
                    last = f"WebSocket handshake answered {ws.status}"
                    continue
                ws.expect("state", figures)
                ws.send_text('{"type":"state"}')
                ws.expect("state", figures)
                return True
            finally:
                ws.close()
        except (OSError, ConnectionError, TimeoutError, ValueError) as e:
            last = str(e)  # e.g. the connection limit, full of pages still closing
            time.sleep(0.2)
    figures.failures.append(f"sane check failed: {last}")
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--polydam", default="target/debug/polydam", help="the polydam program")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long to fuzz (default 30)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    ap.add_argument("--verbose", action="store_true", help="print every failure")
    args = ap.parse_args()
    if not 0 < args.seconds <= 86400:
        ap.error("--seconds must be above 0 and at most 86400")
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    print(f"web_fuzz: seed {seed}, {args.seconds:g} s", flush=True)

    try:
        server = subprocess.Popen(
            [args.polydam, "serve", "--bind", "127.0.0.1", "--port", "0", "--idle-timeout", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
    except OSError as e:
        print(f"web_fuzz: cannot start {args.polydam}: {e}", file=sys.stderr)
        return 2
    line = server.stdout.readline().strip()
    if not line.startswith("http://127.0.0.1:"):
        server.kill()
        print(f"web_fuzz: polydam serve printed {line!r}, not its URL", file=sys.stderr)
        return 2
    addr = ("127.0.0.1", int(line.rstrip("/").rsplit(":", 1)[1]))

    figures = Figures()
    sessions = []  # WebSockets left open on purpose (at most a few)
    try:
        probe = WebSocket(addr)
        listed = probe.expect("variants", figures)["variants"]
        variants = [v["name"] for v in listed] or ["international"]
        probe.close()
    except (OSError, ConnectionError, TimeoutError, ValueError, KeyError, TypeError) as e:
        print(f"web_fuzz: the server does not answer: {e}", file=sys.stderr)
        server.kill()
        return 2
    started = time.monotonic()
    last_check = started
    while time.monotonic() - started < args.seconds and server.poll() is None:
        if rng.random() < 0.4:
            fuzz_http(rng, addr, figures)
        else:
            fuzz_ws(rng, addr, figures, variants, sessions)
        while len(sessions) > 3:
            sessions.pop(0).close()
        if time.monotonic() - last_check > 2.0:
            sane_check(addr, figures)
            last_check = time.monotonic()
    for ws in sessions:
        ws.close()
    alive = server.poll() is None
    if alive:
        sane_check(addr, figures)
        alive = server.poll() is None
    else:
        figures.failures.append(f"the server exited with status {server.returncode}")
    elapsed = time.monotonic() - started
    if alive:
        server.kill()
    _, err = server.communicate()
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(figures.http_statuses.items()))
    print(
        f"web_fuzz: {elapsed:.0f} s, {figures.http_requests} HTTP requests ({statuses}), "
        f"{figures.ws_sessions} WebSocket sessions, {figures.ws_messages} messages sent, "
        f"{figures.replies} frames received ({figures.error_replies} error replies), "
        f"{figures.closed_by_server} connections closed by the server, "
        f"{figures.socket_errors} socket errors, {figures.sane_checks} sane checks, "
        f"server {'alive' if alive else 'DEAD'}, {len(figures.failures)} failures"
    )
    if figures.failures:
        for f in figures.failures if args.verbose else figures.failures[:5]:
            print(f"web_fuzz: FAIL {f}", file=sys.stderr)
        if err.strip():
            print(f"web_fuzz: the server's stderr:\n{err[-2000:]}", file=sys.stderr)
    return 0 if alive and not figures.failures else 1


if __name__ == "__main__":
    sys.exit(main())
