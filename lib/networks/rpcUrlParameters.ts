// The SSM parameter holding a network's RPC URLs (custom.parameters in serverless.yml), by the
// name a function's `access.parameters` lists it under. A function that reads every network the
// stage serves (the schedules, balances, trade lookups) lists SERVED_RPC_URLS instead: the deploy
// rules grant it each served network's parameter (lib/serverless/servedNetworks.ts), so a network
// added to the table needs no edit of theirs.

/** `ethereumRpcUrl`: the RPC URL parameter of a network. */
export function rpcUrlParameterOf(network: string): string {
  return `${network}RpcUrl`
}

/** In `access.parameters`: the RPC URL parameter of every network the stage serves. */
export const SERVED_RPC_URLS = 'servedRpcUrls'

/** A function's parameter names with SERVED_RPC_URLS spelled out for these networks. */
export function expandRpcUrlParameters(
  parameters: readonly string[],
  networks: readonly string[],
): string[] {
  return [
    ...new Set(
      parameters.flatMap((parameter) =>
        parameter === SERVED_RPC_URLS ? networks.map(rpcUrlParameterOf) : [parameter],
      ),
    ),
  ]
}
