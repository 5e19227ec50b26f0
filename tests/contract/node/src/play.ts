// Plays a seeded deal against a live server with a client generated from openapi.yaml
// (openapi-typescript types + openapi-fetch): /deal, then /legal-moves and /play until the
// deal ends, always the first legal move. Then a second deal (seed + 1), led by the seat that
// took the pig, and the two deals' records from /play sent to /match as a two-deal match.
// Prints the first deal's plays and score, both scores and the match as JSON.
//   node build/src/play.js http://127.0.0.1:8080 [seed]
import createClient from "openapi-fetch";
import type { components, paths } from "../build/schema.js";

type Play = components["schemas"]["Play"];
type DealState = components["schemas"]["DealState"];
type DealScore = components["schemas"]["DealScore"];
type DealRecord = components["schemas"]["DealRecord"];
type Client = ReturnType<typeof createClient<paths>>;

const CARDS_IN_A_DEAL = 52;

async function main(): Promise<void> {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    throw new Error("usage: play.js BASE_URL [SEED]");
  }
  const seed = Number(process.argv[3] ?? "1");
  const client = createClient<paths>({ baseUrl });

  const dealt = await client.POST("/deal", { body: { seed } });
  if (!dealt.data) {
    throw new Error(`/deal failed: ${JSON.stringify(dealt.error)}`);
  }
  const state: DealState = { hands: dealt.data.hands, plays: [] };
  const plays: Play[] = [];
  let score: DealScore | null = null;

  for (let turn = 0; turn < CARDS_IN_A_DEAL && score === null; turn++) {
    const legal = await client.POST("/legal-moves", { body: { ...state, plays } });
    if (!legal.data) {
      throw new Error(`/legal-moves failed: ${JSON.stringify(legal.error)}`);
    }
    const move = legal.data.moves[0];
    if (move === undefined || legal.data.seat === null) {
      throw new Error("no move for an unfinished deal");
    }
    const played = await client.POST("/play", {
      body: { ...state, plays, move, seat: legal.data.seat },
    });
    if (!played.data) {
      throw new Error(`/play failed: ${JSON.stringify(played.error)}`);
    }
    plays.push(move);
    score = played.data.score;
  }
  if (score === null) {
    throw new Error("the deal did not end");
  }

  // A problem answer is typed too: an unknown field is a schema_violation.
  const rejected = await client.POST("/ingots", {
    body: { scores: [0, 0, 0, 0], extra: 1 } as unknown as components["schemas"]["IngotsRequest"],
  });
  const problem = rejected.error;
  if (!problem || problem.code !== "schema_violation") {
    throw new Error(`expected schema_violation, got ${JSON.stringify(rejected)}`);
  }

  const first = await playDeal(client, seed, true, null);
  const second = await playDeal(client, seed + 1, false, first.score.next_leader);
  const matched = await client.POST("/match", { body: { deals: [first.record, second.record] } });
  if (!matched.data) {
    throw new Error(`/match failed: ${JSON.stringify(matched.error)}`);
  }

  console.log(JSON.stringify({
    hands: state.hands, plays, score, problem: problem.code,
    match: { scores: [first.score, second.score], report: matched.data },
  }));
}

// One deal to its end, always the first legal move; its score and its record for /match.
async function playDeal(
  client: Client, seed: number, firstDeal: boolean, leader: number | null,
): Promise<{ score: DealScore; record: DealRecord }> {
  const dealt = await client.POST("/deal", { body: { seed, first_deal: firstDeal } });
  if (!dealt.data) {
    throw new Error(`/deal failed: ${JSON.stringify(dealt.error)}`);
  }
  const state: DealState = { hands: dealt.data.hands, first_deal: firstDeal };
  if (leader !== null) {
    state.leader = leader;
  }
  const plays: Play[] = [];
  for (let turn = 0; turn < CARDS_IN_A_DEAL; turn++) {
    const legal = await client.POST("/legal-moves", { body: { ...state, plays } });
    const move = legal.data?.moves[0];
    if (move === undefined) {
      throw new Error(`/legal-moves failed: ${JSON.stringify(legal.error)}`);
    }
    const played = await client.POST("/play", { body: { ...state, plays, move } });
    if (!played.data) {
      throw new Error(`/play failed: ${JSON.stringify(played.error)}`);
    }
    plays.push(move);
    if (played.data.score !== null && played.data.record !== undefined) {
      return { score: played.data.score, record: played.data.record };
    }
  }
  throw new Error("the deal did not end");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
