import { encodeFunctionData, erc20Abi, toHex } from 'viem'
import { ETHEREUM, WALLET } from '../../lib/openapi/exampleValues'
import type { RouteDoc } from '../../lib/openapi/routeDoc'

// 250 USDC (6 decimals) for a wallet that has approved none: one approval, simulated.
const AMOUNT = 250_000_000n
const GAS_USED = 46_109n

export const doc: RouteDoc = {
  description:
    "Whether `owner` must approve the network's swap router for `amount` (base units) of `token` before a swap, and if so the unsigned approval for exactly that amount (never unlimited; approve(router, 0) first where the allowance is short but not zero), with its preview. Any owner may be asked; the transactions are for `owner` to sign. The native coin needs none.",
  // A token that is not a contract, or whose allowance read reverts.
  errors: [422],
  example: {
    params: { network: 'ethereum' },
    query: { token: ETHEREUM.usdc, amount: AMOUNT.toString(), owner: WALLET },
    result: {
      needed: true,
      spender: ETHEREUM.swapRouter,
      allowance: '0',
      amount: AMOUNT.toString(),
      transactions: [
        {
          kind: 'approval',
          description: `approve ${AMOUNT} base units of ${ETHEREUM.usdc} for the router`,
          type: 'eip1559',
          chainId: ETHEREUM.chainId,
          nonce: 7,
          gas: toHex((GAS_USED * 150n + 99n) / 100n),
          maxFeePerGas: toHex(24_000_000_000n),
          maxPriorityFeePerGas: toHex(1_000_000_000n),
          to: ETHEREUM.usdc,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [ETHEREUM.swapRouter, AMOUNT],
          }),
          value: '0x0',
        },
      ],
      preview: {
        blockNumber: '21004510',
        method: 'eth_simulateV1',
        transactions: [{ kind: 'approval', status: 'success', gasUsed: GAS_USED.toString() }],
        gasUsed: GAS_USED.toString(),
        balanceChanges: [],
        allowanceChanges: [
          {
            token: ETHEREUM.usdc,
            owner: WALLET,
            spender: ETHEREUM.swapRouter,
            before: '0',
            after: AMOUNT.toString(),
          },
        ],
        issues: [],
      },
    },
  },
}
