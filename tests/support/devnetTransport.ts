import { custom, http, type Hex, numberToHex, type Transport } from 'viem'
import { withHeadroom } from '../../lib/send/gasLimit'

/**
 * The transport of every wallet a test signs with: plain http, except that the gas limit the node
 * suggests gets the service's own headroom (lib/send/gasLimit.ts), from `eth_estimateGas` and from
 * `eth_fillTransaction` (which viem asks first, for gas, fees and nonce at once). Signed with the
 * bare figure, a Uniswap V2 swap estimated in the same second as its pool's last update runs out
 * of gas once the block time has moved (the pair then writes its price accumulators): on a busy
 * machine such a test transaction reverted (7 of 240 concurrent buys on a devnet).
 */
export function devnetTransport(rpcUrl: string): Transport {
  const node = http(rpcUrl)({ retryCount: 0 })
  return custom({
    async request({ method, params }: { method: string; params?: unknown }) {
      const answer: unknown = await node.request({ method, params })
      if (method === 'eth_estimateGas') return withMoreGas(answer as Hex)
      if (method === 'eth_fillTransaction') {
        const filled = answer as { tx: { gas?: Hex } }
        if (filled.tx.gas) filled.tx.gas = withMoreGas(filled.tx.gas)
      }
      return answer
    },
  })
}

const withMoreGas = (gas: Hex): Hex => numberToHex(withHeadroom(BigInt(gas)))
