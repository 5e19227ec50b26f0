"""The conformance suite: JSON cases (``cases/*.json``, format ``case.schema.json``) that any
implementation of the HTTP contract is checked against, and the runner behind
``gongzhu-service conformance`` (docs/conformance.md). The runner uses the standard library only;
``--in-process`` needs the server extra."""
