// The SDK's batch test (run by make test against a live server): four calls in one POST /batch
// through batch(), each result typed by its call's path, then a batch refused as a whole (two
// calls named alike). Prints what came back as JSON for tests/sdk/test_sdk.py to check.
//   node test-build/batch.js http://127.0.0.1:8080 [seed]
import { batch, call, createGongzhuClient, type BatchCall } from "gongzhu-client";

async function main(): Promise<void> {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    throw new Error("usage: batch.js BASE_URL [SEED]");
  }
  const client = createGongzhuClient(baseUrl);
  const dealt = await client.POST("/deal", { body: { seed: Number(process.argv[3] ?? "1") } });
  if (!dealt.data) {
    throw new Error(`/deal failed: ${JSON.stringify(dealt.error)}`);
  }
  const hands = dealt.data.hands;
  const holder = hands.findIndex((hand) => hand.includes("C2"));
  const other = hands[(holder + 1) % 4]?.[0];
  if (other === undefined) {
    throw new Error("no card to play out of turn");
  }
  // @ts-expect-error -- a call's body is its path's request: /ingots takes scores, not hands
  call("/ingots", { hands });
  // /batch itself is no path a call is typed for; sent anyway, it is refused on its own
  const nested = { url: "/batch", body: { requests: [] } } as unknown as BatchCall<"/deal">;
  const { data, error } = await batch(client, [
    call("/legal-moves", { hands }),
    call("/ingots", { scores: [100, 0, -200, -200] }, { id: "settle" }),
    call("/play", { hands, plays: [], move: [other] }, { language: "zh" }),
    nested,
  ]);
  if (!data) {
    throw new Error(`/batch failed: ${JSON.stringify(error)}`);
  }
  const [moves, settled, refused, refusedNested] = data;
  if (!moves.data || !settled.data || !refused.error || !refusedNested.error) {
    throw new Error(`unexpected results: ${JSON.stringify(data)}`);
  }
  // typed by the call's path: a LegalMoves, an IngotsResult, a Problem
  const seat: number | null = moves.data.seat;
  const net: number[] = settled.data.net;
  const twice = await batch(client, [call("/deal", { seed: 1 }, { id: "a" }), call("/deal", { seed: 2 }, { id: "a" })]);
  console.log(JSON.stringify({
    hands,
    ids: data.map((item) => item.id),
    statuses: data.map((item) => item.status),
    moves: moves.data,
    seat,
    net,
    refused: { error: refused.error, headers: refused.headers },
    nested: refusedNested.error.code,
    twice: twice.error ?? null,
  }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
