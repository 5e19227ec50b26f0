"""Reading Prometheus text: one sample's value by name and labels."""
from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def value(text: str, name: str, **labels: str) -> float:
    """The sample ``name{labels}`` (0 when absent: a counter not yet incremented)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0
