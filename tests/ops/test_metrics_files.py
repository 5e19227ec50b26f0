"""/metrics in multiprocess mode counts every request once, whatever a worker was doing as it was born or
ended. A scrape reads only the files processes have begun to write (``metrics.written``): prometheus_client
creates a process's file before it sizes it, and a scrape in between, or the merge of a worker killed then,
failed whole (a 500 seen while a worker was being born). A worker's last flush waits for its flusher thread's."""
from __future__ import annotations

import json
import threading

from prometheus_client.mmap_dict import MmapedDict

from gongzhu.api import metrics


def _counter_file(path, pid: int, value: float) -> None:
    out = MmapedDict(str(path / f"counter_{pid}.db"))
    key = json.dumps(["gongzhu_files_test", "gongzhu_files_test_total", {}, "a test counter"], sort_keys=True)
    out.write_value(key, value, 0.0)
    out.close()


def test_a_scrape_leaves_out_a_file_a_process_has_not_begun_to_write(monkeypatch, tmp_path):
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(tmp_path))
    _counter_file(tmp_path, 4242, 3.0)
    (tmp_path / "counter_4243.db").touch()
    body, _ = metrics.render()
    assert b"gongzhu_files_test_total 3.0" in body
    assert metrics.written([str(tmp_path / "counter_4242.db"), str(tmp_path / "counter_4243.db"),
                            str(tmp_path / "gone.db")]) == [str(tmp_path / "counter_4242.db")]


def test_a_worker_dead_before_it_wrote_its_file_is_merged_as_nothing(tmp_path):
    _counter_file(tmp_path, 7, 2.0)
    (tmp_path / "counter_8.db").touch()
    metrics.merge_dead(7, str(tmp_path))
    metrics.merge_dead(8, str(tmp_path))
    assert sorted(p.name for p in tmp_path.glob("*.db")) == [f"counter_{metrics.MERGED}.db"]
    merged = metrics.multiprocess.MultiProcessCollector.merge([str(tmp_path / f"counter_{metrics.MERGED}.db")])
    assert [s.value for m in merged for s in m.samples if s.name == "gongzhu_files_test_total"] == [2.0]


def test_a_flush_returns_once_the_observations_another_thread_took_are_counted(monkeypatch):
    """A worker's exit flushes while its flusher thread may be counting what it took off the queue; the worker
    ended as the exit's flush returned, and a recycled worker's last requests went uncounted."""
    metrics.flush()
    before = metrics.REQUESTS.labels("healthz", "299")._value.get()
    taken, go_on = threading.Event(), threading.Event()
    labels = metrics.REQUESTS.labels

    def held(*names):
        if threading.current_thread() is not threading.main_thread():
            taken.set()
            go_on.wait(10)
        return labels(*names)

    monkeypatch.setattr(metrics.REQUESTS, "labels", held)
    metrics.observe_request("healthz", 299, 0.001)
    flusher = threading.Thread(target=metrics.flush)
    flusher.start()
    assert taken.wait(10)
    threading.Timer(0.2, go_on.set).start()
    metrics.flush()  # the queue is empty: it may return only once the flusher thread's count is in
    assert metrics.REQUESTS.labels("healthz", "299")._value.get() == before + 1
    flusher.join(10)
