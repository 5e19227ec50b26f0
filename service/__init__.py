"""gongzhu-service: the rules of 拱猪 (Gong Zhu) as a stateless REST API."""
