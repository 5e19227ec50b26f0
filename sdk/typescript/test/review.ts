// The SDK's review test (run by make test against a live server): a deal's hands and plays
// read as JSON from stdin, reviewed through the built package with a seed and a budget, as a
// replay screen would ask. Each decision's fields are read through their generated types;
// prints the whole answer, each seat's total loss summed from its decisions and its count of each verdict
// (decisions with a choice), and each estimated decision's standard errors, as JSON.
//   node test-build/review.js http://127.0.0.1:8080 < deal.json
import { readFileSync } from "node:fs";
import { createGongzhuClient, type Schemas } from "gongzhu-client";

type Decision = Schemas["ReviewDecision"];

async function main(): Promise<void> {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    throw new Error("usage: review.js BASE_URL < DEAL_JSON");
  }
  const deal = JSON.parse(readFileSync(0, "utf-8")) as { hands: Schemas["Hands"]; plays: Schemas["Plays"] };
  const client = createGongzhuClient(baseUrl);
  const body: Schemas["ReviewRequest"] = { hands: deal.hands, plays: deal.plays, seed: 1, budget_ms: 300 };
  const reviewed = await client.POST("/review", { body });
  if (!reviewed.data) {
    throw new Error(`/review failed: ${JSON.stringify(reviewed.error)}`);
  }
  const review: Schemas["Review"] = reviewed.data;
  const totals = [0, 0, 0, 0];
  const verdicts: Partial<Record<Decision["verdict"], number>>[] = [{}, {}, {}, {}];
  const errors: [number, number | undefined, number | undefined][] = [];
  review.decisions.forEach((decision: Decision) => {
    totals[decision.seat] = (totals[decision.seat] ?? 0) + decision.loss;
    const counts = verdicts[decision.seat];
    if (decision.values && counts) {
      counts[decision.verdict] = (counts[decision.verdict] ?? 0) + 1;
    }
    if (decision.lens === "fair") {
      errors.push([decision.play, decision.se, decision.loss_se]);
    }
  });
  console.log(JSON.stringify({ review, totals, verdicts, errors }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
