import type { Middleware } from 'openapi-fetch'

// What tests/e2e/typedClient.test.ts hands the typed journey. Apart from journey.ts, which imports
// types generated at test time and is typechecked by that test, so that this file (in the root
// program) is all the test needs to know of it.

export interface JourneyOptions {
  /** The local stack's API (serverless offline). */
  baseUrl: string
  /** Sees every response: the test validates each against the document. */
  middleware: Middleware
  /** Catalog tokens of the local stack's ethereum devnet, and the project of the first. */
  link: `0x${string}`
  usdc: `0x${string}`
  linkProject: string
}

export type RunJourney = (options: JourneyOptions) => Promise<void>
