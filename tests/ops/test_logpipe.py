"""serve's copy of nginx's and gunicorn's lines to stdout (server/logpipe.py), against a stdout that is written to
by a function: whole lines, valid UTF-8, dropped and counted while stdout takes nothing, one warning once it
takes lines again. The drills against a real serve are in tests/faults/test_log_pipe_drills.py."""
from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable

from gongzhu.server import logpipe

# Room for every byte a test writes before the copy starts (the kernel's default is 64 KiB).
PIPE_BYTES = 1024 * 1024


def _pipes_holding(*contents: bytes) -> list[int]:
    """The read ends of pipes holding ``contents``, their write ends closed."""
    ends = []
    for content in contents:
        read_end, write_end = os.pipe()
        fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        os.write(write_end, content)
        os.close(write_end)
        ends.append(read_end)
    return ends


def _taking(into: bytearray, until: Callable[[], bool] = lambda: True) -> Callable[[bytes], int]:
    """A stdout that takes nothing until ``until()``, then everything."""
    def write(data: bytes) -> int:
        if not until():
            return 0
        into.extend(data)
        return len(data)
    return write


def test_lines_from_two_pipes_are_copied_whole_and_as_utf_8():
    taken = bytearray()
    logpipe.LinePipe(_pipes_holding(b'{"a":1}\n{"b":"\xff\xc3\xa9"}\n', b"no end"), _taking(taken), [].append).run()
    assert sorted(taken.decode().splitlines()) == sorted(['{"a":1}', '{"b":"\ufffd\u00e9"}', "no end"])


def test_lines_stdout_cannot_take_are_dropped_counted_and_reported_once_it_takes_again():
    line = b"x" * 1023 + b"\n"
    kept = logpipe.BUFFER_BYTES // len(line)
    # ten lines past the buffer, and a line longer than the whole buffer
    sources = _pipes_holding(line * (kept + 10), b"z" * (logpipe.BUFFER_BYTES + 1))
    taken, counted = bytearray(), []
    lines = logpipe.LinePipe(sources, lambda data: 0, counted.append)
    # stdout takes nothing until every pipe has been read to its end
    lines.write = _taking(taken, lambda: not lines.partial)
    lines.run()
    out = taken.decode().splitlines()
    assert out[:kept] == [line.decode().strip()] * kept and len(out) == kept + 1
    warning = json.loads(out[-1])
    assert (warning["level"], warning["logger"], warning["message"]) == (
        "warning", "gongzhu.serve", "stdout did not take 11 log lines: dropped")
    assert counted == [1] * 11
