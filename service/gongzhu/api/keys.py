"""What the layers of one request leave for each other in its WSGI environ."""
# the request's id (set by ``telemetry``; problem bodies carry it)
REQUEST_ID = "gongzhu.request_id"
# the contract's ``operationId`` of the method and path, or ``UNKNOWN_OPERATION`` (set by
# ``pipeline.Pipeline.match``, the one reader of the contract's routes; read by telemetry for metric labels, the
# access line and the span)
OPERATION = "gongzhu.operation"
# the operation of a request that matches none (its metric label and access line)
UNKNOWN_OPERATION = "none"
# the pipeline's match of the path (its methods and path parameters), so the path is matched once per request
# whoever asks first (telemetry, CORS, the pipeline)
MATCH = "gongzhu.match"
# the stable code of a problem answer (set by ``problems``, counted by telemetry)
PROBLEM = "gongzhu.problem"
# a batch's calls and how many of them were refused (set by ``batch``; telemetry writes them on the access line)
BATCH = "gongzhu.batch"
