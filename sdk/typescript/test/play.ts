// The SDK's game test (run by make test against a live server): a seeded match of two
// deals through the built package, imported by its name as an application would.
// The first deal's leader is the holder of C2; the second deal is dealt with
// first_deal: false and led by the seat that took the pig in the first.
// Every play is the first legal move. The two deals' records, as /play answers them
// at each deal's end, go to /match as they are. Prints each deal's hands, leader,
// plays and score, the match report, and the code of a problem answer, as JSON.
//   node test-build/play.js http://127.0.0.1:8080 [seed]
import { createGongzhuClient, type GongzhuClient, type Schemas } from "gongzhu-client";

type Play = Schemas["Play"];
type DealScore = Schemas["DealScore"];

interface PlayedDeal {
  hands: Schemas["Hands"];
  leader: number;
  plays: Play[];
  score: DealScore;
  record: Schemas["DealRecord"];
}

async function playDeal(client: GongzhuClient, seed: number, leader: number | null): Promise<PlayedDeal> {
  const dealt = await client.POST("/deal", { body: leader === null ? { seed } : { seed, first_deal: false } });
  if (!dealt.data) {
    throw new Error(`/deal failed: ${JSON.stringify(dealt.error)}`);
  }
  const state: Schemas["DealState"] = leader === null
    ? { hands: dealt.data.hands }
    : { hands: dealt.data.hands, first_deal: false, leader };
  const plays: Play[] = [];
  let turn: Schemas["LegalMoves"] | undefined = (await client.POST("/legal-moves", { body: state })).data;
  const firstLeader = turn?.seat;
  while (turn && !turn.finished) {
    const move = turn.moves[0];
    if (move === undefined || turn.seat === null) {
      throw new Error("no move for an unfinished deal");
    }
    const played = await client.POST("/play", { body: { ...state, plays, move, seat: turn.seat } });
    if (!played.data) {
      throw new Error(`/play failed: ${JSON.stringify(played.error)}`);
    }
    plays.push(move);
    if (played.data.score !== null) {
      if (typeof firstLeader !== "number" || played.data.record === undefined) {
        throw new Error("the deal had no leader or no record");
      }
      return { hands: state.hands, leader: firstLeader, plays, score: played.data.score, record: played.data.record };
    }
    turn = played.data.next;
  }
  throw new Error("the deal ended without a score");
}

async function main(): Promise<void> {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    throw new Error("usage: play.js BASE_URL [SEED]");
  }
  const seed = Number(process.argv[3] ?? "1");
  const client = createGongzhuClient(baseUrl);

  const first = await playDeal(client, seed, null);
  const second = await playDeal(client, seed + 1, first.score.next_leader);

  const match = await client.POST("/match", { body: { deals: [first.record, second.record] } });
  if (!match.data) {
    throw new Error(`/match failed: ${JSON.stringify(match.error)}`);
  }

  // A problem answer is typed too: an unknown field is a schema_violation.
  const rejected = await client.POST("/ingots", {
    body: { scores: [0, 0, 0, 0], extra: 1 } as unknown as Schemas["IngotsRequest"],
  });
  const problem = rejected.error;
  if (!problem || problem.code !== "schema_violation") {
    throw new Error(`expected schema_violation, got ${JSON.stringify(rejected)}`);
  }

  console.log(JSON.stringify({ deals: [first, second], match: match.data, problem: problem.code }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
