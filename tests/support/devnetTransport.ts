import { custom, http, type Hex, numberToHex, type Transport } from 'viem'
import { withHeadroom } from '../../lib/swap/gasLimit'

/**
 * The transport of every wallet a test signs with: plain http, except that an `eth_estimateGas`
 * answer gets the service's own headroom (lib/swap/gasLimit.ts). viem signs with the bare
 * estimate, and a Uniswap V2 swap estimated in the same second as its pool's last update costs
 * about 45,000 gas more once the block time moves (the pair writes its price accumulators): on a
 * busy machine such a test transaction ran out of gas and reverted.
 */
export function devnetTransport(rpcUrl: string): Transport {
  const node = http(rpcUrl)({ retryCount: 0 })
  return custom({
    async request({ method, params }: { method: string; params?: unknown }) {
      const answer: unknown = await node.request({ method, params })
      return method === 'eth_estimateGas'
        ? numberToHex(withHeadroom(BigInt(answer as Hex)))
        : answer
    },
  })
}
