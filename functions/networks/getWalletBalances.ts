import { formatEther, getAddress } from 'viem'
import { walletGuard } from '../../lib/auth/guard'
import { loadServedNetworks } from '../../lib/config'
import { defineHandler } from '../../lib/http/defineHandler'
import { rpcBudget } from '../../lib/http/rpcBudget'
import type { Principal } from '../../lib/auth/principal'
import { readWalletBalances } from '../../lib/markets/readWalletBalances'
import { balancesRpcCap } from '../../lib/rpcCallCaps'
import { type WalletBalancesResult, walletBalancesResultSchema } from '../../schemas/networks'

export async function getWalletBalances(principal: Principal): Promise<WalletBalancesResult> {
  const balances = await readWalletBalances(getAddress(principal.subject))
  return {
    // Whole coins: every native coin here has 18 decimals.
    networksBalance: balances.map(({ network, balance }) => ({
      network,
      balance: Number(formatEther(balance)),
      balanceExact: formatEther(balance),
    })),
  }
}

export const handler = defineHandler({
  auth: walletGuard,
  rpcBudget: rpcBudget(() => balancesRpcCap(loadServedNetworks().length)),
  // A read: the session is checked while the route reads (one sequential round trip).
  sessionRead: 'beside',
  result: walletBalancesResultSchema,
  run: ({ principal }) => getWalletBalances(principal),
})
