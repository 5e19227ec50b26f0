// The SDK's solve test (run by make test against a live server): a deal state read as JSON from stdin,
// valued through the built package, as a table screen showing the best play with the cards open would ask.
// Each move's fields are read through their generated types; prints the whole answer, the moves whose value
// is the highest (found in TypeScript from the exact values) and the moves whose value is only bounded.
//   node test-build/solve.js http://127.0.0.1:8080 < state.json
import { readFileSync } from "node:fs";
import { createGongzhuClient, type Schemas } from "gongzhu-client";

type MoveValue = Schemas["SolveValue"];

async function main(): Promise<void> {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    throw new Error("usage: solve.js BASE_URL < STATE_JSON");
  }
  const body = JSON.parse(readFileSync(0, "utf-8")) as Schemas["SolveRequest"];
  const client = createGongzhuClient(baseUrl);
  const solved = await client.POST("/solve", { body });
  if (!solved.data) {
    throw new Error(`/solve failed: ${JSON.stringify(solved.error)}`);
  }
  const answer: Schemas["Solve"] = solved.data;
  const exact = answer.values.filter((v: MoveValue) => v.exact && v.value !== null);
  const highest = Math.max(...exact.map((v: MoveValue) => v.value ?? -Infinity));
  const best = exact.filter((v: MoveValue) => v.value === highest).map((v: MoveValue) => v.move);
  const bounded = answer.values.filter((v: MoveValue) => !v.exact).map((v: MoveValue) => [v.move, v.lower, v.upper]);
  console.log(JSON.stringify({ solve: answer, best, bounded }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
