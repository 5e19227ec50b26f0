"""/metrics in multiprocess mode reads only the files processes have begun to write (``metrics.written``):
prometheus_client creates a process's file before it sizes it, and a scrape in between, or the merge of a
worker killed then, failed whole (a 500 seen while a worker was being born)."""
from __future__ import annotations

import json

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
