"""What the layers of one request leave for each other in its WSGI environ.

- ``REQUEST_ID``: the request's id (set by ``telemetry``; problem bodies carry it).
- ``OPERATION``: the contract's ``operationId`` of the method and path, or ``none``
  (set by ``pipeline.Pipeline.match``, the one reader of the contract's routes; read
  by telemetry for metric labels, the access line and the span).
- ``MATCH``: the pipeline's match of the path (its methods and path parameters), so
  the path is matched once per request whoever asks first (telemetry, CORS, the pipeline).
- ``PROBLEM``: the stable code of a problem answer (set by ``problems``, counted by telemetry).
"""
REQUEST_ID = "gongzhu.request_id"
OPERATION = "gongzhu.operation"
MATCH = "gongzhu.match"
PROBLEM = "gongzhu.problem"
