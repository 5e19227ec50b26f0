"""gongzhu-service: the rules of 拱猪 (Gong Zhu) as a pure engine (``service.rules``)
and a stateless REST API over it (``service.api``). See /SPEC.md and openapi.yaml."""

__version__ = "0.1.0"
