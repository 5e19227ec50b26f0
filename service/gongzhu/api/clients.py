"""Whether the client of a request still waits for its answer: nginx closes its connection to the worker
when its client goes, and a request whose client has gone is not started, nor carried on between the
decisions of a long search (``/review``)."""
from __future__ import annotations

import socket


class ClientGone(Exception):
    """nginx has closed the connection, its client gone: nothing is answered (logged and counted as 499)."""


def gone(environ: dict | None) -> bool:
    """Whether the connection the request came on is closed (False when there is no socket to ask)."""
    sock = None if environ is None else environ.get("gunicorn.socket")
    return sock is not None and _closed(sock)


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True
