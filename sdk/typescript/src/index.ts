// The gongzhu-service client: openapi-fetch over the types openapi-typescript generated
// from the service's contract (./schema.ts, written by make sdk, never by hand).
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };

/** Every schema of the contract, by its name there: `Schemas["DealState"]`, `Schemas["PlayOutcome"]`, … */
export type Schemas = components["schemas"];

/** A client whose every call is typed by the contract: `client.POST("/play", { body })`. */
export type GongzhuClient = Client<paths>;

/** A client of the service at `baseUrl` (e.g. `http://localhost:8080`). */
export function createGongzhuClient(baseUrl: string, options: Omit<ClientOptions, "baseUrl"> = {}): GongzhuClient {
  return createClient<paths>({ ...options, baseUrl });
}

export { batch, call } from "./batch.js";
export type { BatchAnswer, BatchBody, BatchCall, BatchPath, BatchResult, BatchResults } from "./batch.js";
