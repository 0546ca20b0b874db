import type { NetworkName } from '../networkNames'
import { NETWORKS } from '../networkNames'
import { KEY_PARAMS, submitExample, txResult } from './exampleValues'
import { networkExamples } from './networkExamples'
import { PREPARED_ROUTE, type RouteDoc, SIGNED_ROUTE, SUBMITTED_ROUTE } from './routeDoc'

// The docs of a network's routes (lib/networks/operations.ts), one per operation: each network's
// operation's doc file under functions/ exports it as `docOf`, with the examples each network's
// table entry gives (lib/openapi/networkExamples.ts).

export function quoteDoc(network: NetworkName): RouteDoc {
  const { quote } = networkExamples(network)
  return {
    description: NETWORKS[network].routes.quoteCall
      ? `An exact quote on ${network}, with the router call data that performs the swap to \`recipient\` (20-minute deadline) and its value.`
      : `An exact quote on ${network}: the best router path of up to 3 hops for the amount in, and the minimum out after slippage.`,
    errors: [422],
    example: quote,
  }
}

export function swapTokensDoc(network: NetworkName): RouteDoc {
  const { tokenSwap } = networkExamples(network)
  return {
    description: NETWORKS[network].routes.nativeSwapRoute
      ? `Swaps a token for another on ${network}, signed with \`{key}\`; when the allowance is short, a token with EIP-2612 \`permit\` is permitted inside the swap (the key signs the permit; the multicall starts with \`selfPermit\`: one transaction, no standing allowance), any other is approved first (mined before the swap). The approvals and the swap are simulated first: a simulation that reverts is 422 with the reason and nothing is sent. Answers the swap's transaction hash and the preview.`
      : `Swaps on ${network} (either side may be the native coin), signed with \`{key}\`; when the allowance is short, a token with EIP-2612 \`permit\` is permitted inside the swap (the key signs the permit; the multicall starts with \`selfPermit\`: one transaction, no standing allowance), any other is approved first (mined before the swap). The approvals and the swap are simulated first: a simulation that reverts is 422 with the reason and nothing is sent. Answers the swap's transaction hash and the preview.`,
    ...SIGNED_ROUTE,
    example: async () => ({
      params: KEY_PARAMS,
      body: tokenSwap.body,
      result: { ...txResult(await submitExample(tokenSwap)), preview: tokenSwap.result.preview },
    }),
  }
}

export function swapNativeDoc(network: NetworkName): RouteDoc {
  const { nativeSwap } = networkExamples(network)
  return {
    description: `Swaps between the native coin and a token on ${network}, signed with \`{key}\` (which must control the signed-in wallet), simulated first (a revert is 422 with the reason, nothing sent), and answers the transaction hash once the node accepted it, with the preview.`,
    ...SIGNED_ROUTE,
    example: async () => ({
      params: KEY_PARAMS,
      body: nativeSwap.body,
      result: { ...txResult(await submitExample(nativeSwap)), preview: nativeSwap.result.preview },
    }),
  }
}

export function transferDoc(network: NetworkName): RouteDoc {
  const { transfer } = networkExamples(network)
  return {
    description: `Sends the native coin or a token on ${network}, signed with \`{key}\`, simulated first (a revert is 422 with the reason, nothing sent), and answers the transaction hash and the preview.`,
    ...SIGNED_ROUTE,
    example: async () => ({
      params: KEY_PARAMS,
      body: transfer.body,
      result: { ...txResult(await submitExample(transfer)), preview: transfer.result.preview },
    }),
  }
}

export function prepareSwapTokensDoc(network: NetworkName): RouteDoc {
  return {
    description: NETWORKS[network].routes.nativeSwapRoute
      ? `The unsigned transactions (an approval where needed, then the swap) that the ${network} token swap route would send, for the wallet to sign itself and submit, with the preview of what they do (balance and allowance changes, gas used, issues). Where the allowance is short and token0 has EIP-2612 \`permit\`, the answer also offers \`permit\`: the EIP-712 typed data to sign instead of the approvals; prepared again with \`permit: {deadline, signature}\`, the answer is the one swap, its multicall starting with \`selfPermit\` (a permit not the wallet's for this chain, token, router, exact amount, nonce and a short future deadline is 400).`
      : `The unsigned transactions (an approval where needed, then the swap) that the ${network} swap route would send, for the wallet to sign itself and submit, with the preview of what they do (balance and allowance changes, gas used, issues). Where the allowance is short and token0 has EIP-2612 \`permit\`, the answer also offers \`permit\`: the EIP-712 typed data to sign instead of the approvals; prepared again with \`permit: {deadline, signature}\`, the answer is the one swap, its multicall starting with \`selfPermit\` (a permit not the wallet's for this chain, token, router, exact amount, nonce and a short future deadline is 400).`,
    ...PREPARED_ROUTE,
    example: networkExamples(network).tokenSwap,
  }
}

export function prepareSwapNativeDoc(network: NetworkName): RouteDoc {
  return {
    description: `The unsigned transactions that the ${network} native swap route would send, for the wallet to sign itself and submit, with the preview of what they do (balance and allowance changes, gas used, issues). Where the allowance is short and token0 has EIP-2612 \`permit\`, the answer also offers \`permit\`: the EIP-712 typed data to sign instead of the approvals; prepared again with \`permit: {deadline, signature}\`, the answer is the one swap, its multicall starting with \`selfPermit\` (a permit not the wallet's for this chain, token, router, exact amount, nonce and a short future deadline is 400).`,
    ...PREPARED_ROUTE,
    example: networkExamples(network).nativeSwap,
  }
}

export function prepareTransferDoc(network: NetworkName): RouteDoc {
  return {
    description: `The unsigned transaction that the ${network} transfer route would send, for the wallet to sign itself and submit, with the preview of what it does (balance and allowance changes, gas used, issues).`,
    ...PREPARED_ROUTE,
    example: networkExamples(network).transfer,
  }
}

export function submitDoc(network: NetworkName): RouteDoc {
  const { tokenSwap } = networkExamples(network)
  return {
    description: `Broadcasts, in order, transactions the signed-in wallet signed from a prepare answer on ${network}, after checking each is one the service would have prepared. A swap whose multicall starts with \`selfPermit\` carries the wallet's permit signature: it is verified (this chain, the token, the router, the swap's exact amount, the current nonce, a deadline not past and at most an hour away) before anything is sent, 400 otherwise.`,
    ...SUBMITTED_ROUTE,
    example: async () => await submitExample(tokenSwap),
  }
}
