// Many calls in one request (POST /batch), each answered exactly as its own call, typed by the
// contract: `call("/legal-moves", state)` is an item whose answer is a LegalMoves or a Problem, and
// `batch(client, [a, b])` gives each item's typed result in the items' order.
import type { Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Problem = components["schemas"]["Problem"];
type ProblemHeaders = components["schemas"]["BatchAnswerHeaders"];
type JsonBody<Operation> = Operation extends { requestBody: { content: { "application/json": infer Body } } }
  ? Body
  : never;
type JsonAnswer<Operation> = Operation extends { responses: { 200: { content: { "application/json": infer Answer } } } }
  ? Answer
  : never;

/** The paths a batch item may call: every operation with a JSON body but /batch itself. */
export type BatchPath = Exclude<
  { [P in keyof paths]: JsonBody<paths[P]["post"]> extends never ? never : P }[keyof paths],
  "/batch"
>;

/** What `url`'s operation takes, and what it answers with status 200. */
export type BatchBody<P extends BatchPath> = JsonBody<paths[P]["post"]>;
export type BatchAnswer<P extends BatchPath> = JsonAnswer<paths[P]["post"]>;

/** One item: `url`'s operation on `body`; `id` (its position when left out), and the language of its
 * own problem (`Accept-Language`). */
export interface BatchCall<P extends BatchPath> {
  readonly url: P;
  readonly body: BatchBody<P>;
  readonly id?: string;
  readonly language?: string;
}

/** An item's answer: its operation's answer, or the problem the same call alone is answered with (and
 * its headers: `Content-Language`, and `Retry-After` or `Allow` where the call alone has them). */
export type BatchResult<P extends BatchPath> =
  | { id: string; status: 200; data: BatchAnswer<P>; error?: never }
  | { id: string; status: number; data?: never; error: Problem; headers: ProblemHeaders };

/** The results of a tuple of items, position by position. */
export type BatchResults<Calls extends readonly BatchCall<BatchPath>[]> = {
  -readonly [K in keyof Calls]: Calls[K] extends BatchCall<infer P> ? BatchResult<P> : never;
};

/** An item of a batch, typed by its path: `call("/play", request, { language: "zh" })`. */
export function call<P extends BatchPath>(
  url: P,
  body: BatchBody<P>,
  options: { id?: string; language?: string } = {},
): BatchCall<P> {
  return { url, body, ...options };
}

/** `calls` in one POST /batch: `{ data }`, each item's result in order, or `{ error }` when the batch
 * itself is refused (a duplicate id, too many items, a body over the batch's limit). */
export async function batch<const Calls extends readonly BatchCall<BatchPath>[]>(
  client: Client<paths>,
  calls: Calls,
): Promise<{ data: BatchResults<Calls>; error?: never } | { data?: never; error: Problem }> {
  const requests = calls.map((item, position) => ({
    id: item.id ?? String(position),
    method: "POST" as const,
    url: item.url,
    body: item.body,
    ...(item.language === undefined ? {} : { headers: { "Accept-Language": item.language } }),
  }));
  const { data, error } = await client.POST("/batch", { body: { requests } });
  if (data === undefined) {
    return { error };
  }
  const results = data.responses.map((item) =>
    item.status === 200
      ? { id: item.id, status: item.status, data: item.body }
      : { id: item.id, status: item.status, error: item.body as Problem, headers: item.headers ?? {} },
  );
  return { data: results as BatchResults<Calls> };
}
