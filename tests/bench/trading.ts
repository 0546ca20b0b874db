import {
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  publicActions,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { type LocalStack, servedDeployment } from '../../lib/local/localStack'
import { httpEvent, invoke } from '../support/httpEvent'
import { countRequests, formatCounts, type RpcTally } from '../support/requestCounters'
import { devnetTransport } from '../support/devnetTransport'
import { timeMany } from './stats'

type Handler = Parameters<typeof invoke>[0]

export interface TradingFigure {
  route: string
  p50: number
  p99: number
  runs: number
  /** JSON-RPC calls per request, and the HTTP round trips that carried them (viem batches). */
  rpcCalls: number
  rpcRoundTrips: number
  methods: string
}

// Handlers are imported only after the local stack has put its settings in process.env.
async function load<Module>(path: string): Promise<Module> {
  return (await import(path)) as Module
}

const buyAbi = parseAbi([
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

/**
 * Warm, in-process timings of an ethereum quote (LINK→WBTC, both paths asked) and of a token
 * swap (USDC→LINK with the allowance already given; and once with the first-time approval), with
 * the JSON-RPC calls each makes. The swapping account is funded on the devnet first.
 */
export async function measureTrading(
  runs: number,
  deployments: LocalStack['deployments'],
): Promise<TradingFigure[]> {
  const dex = servedDeployment(deployments, 'ethereum')
  const link = dex.tokens.find((token) => token.symbol === 'LINK')?.address ?? '0x'
  const wbtc = dex.tokens.find((token) => token.symbol === 'WBTC')?.address ?? '0x'
  const { db } = await load<typeof import('../../lib/db/client')>('../../lib/db/client')
  const counter = countRequests(db())
  try {
    // The operations' routes on ethereum, as functions/swap/quote.ts and swapTokens.ts build
    // them for their functions' NETWORK.
    const { networkRoute } = await load<typeof import('../../lib/networkRoutes/networkRoutes')>(
      '../../lib/networkRoutes/networkRoutes',
    )
    const quoteEthereum = networkRoute('quote', 'ethereum') as Handler
    const swapTokensEthereum = networkRoute('swapTokens', 'ethereum') as Handler
    const { signInWithWallet } =
      await load<typeof import('../support/walletSignIn')>('../support/walletSignIn')

    // A funded, signed-in account holding USDC with the router approved once.
    const privateKey = generatePrivateKey()
    const account = privateKeyToAccount(privateKey)
    const chain = defineChain({
      id: dex.chainId,
      name: 'ethereum',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [dex.rpcUrl] } },
    })
    const transport = devnetTransport(dex.rpcUrl)
    const client = createTestClient({ mode: 'anvil', chain, transport }).extend(publicActions)
    const wallet = createWalletClient({ account, chain, transport })
    await client.setBalance({ address: account.address, value: parseEther('1000000') })
    const usdcNeeded = parseUnits(String(10 * (runs + 2)), 6)
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: dex.router,
        abi: buyAbi,
        functionName: 'swapETHForExactTokens',
        args: [usdcNeeded, [dex.wrappedNative, dex.usdStablecoin], account.address, maxUint256],
        value: parseEther('1000'),
      }),
    })
    const { access } = await signInWithWallet(privateKey)
    const swapEvent = () =>
      httpEvent({
        route: 'swapTokensEthereum',
        pathParameters: { key: privateKey },
        headers: { authorization: `Bearer ${access}` },
        body: {
          amount: '10',
          address0: dex.usdStablecoin,
          decimals0: 6,
          address1: link,
          decimals1: 18,
        },
      })
    const quoteEvent = () =>
      httpEvent({
        route: 'quoteEthereum',
        queryStringParameters: {
          amount: '250',
          address0: link,
          decimals0: '18',
          address1: wbtc,
          decimals1: '8',
        },
      })
    const figures: TradingFigure[] = []
    const measure = async (name: string, times: number, run: () => Promise<{ status: number }>) => {
      counter.take()
      let perRun: RpcTally = { calls: 0, roundTrips: 0, byMethod: {} }
      const timing = await timeMany(times, async () => {
        const response = await run()
        if (response.status !== 200) throw new Error(`${name} answered ${response.status}`)
        perRun = counter.take().rpc
      })
      figures.push({
        route: name,
        ...timing,
        rpcCalls: perRun.calls,
        rpcRoundTrips: perRun.roundTrips,
        methods: formatCounts(perRun.byMethod),
      })
    }

    await invoke(quoteEthereum, quoteEvent())
    await measure('GET /v1/swap/quote/ethereum', runs, () => invoke(quoteEthereum, quoteEvent()))
    await measure('POST /v1/swap/tokens/ethereum/{key} (first, with approval)', 1, () =>
      invoke(swapTokensEthereum, swapEvent()),
    )
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: dex.usdStablecoin,
        abi: erc20Abi,
        functionName: 'approve',
        args: [dex.swapRouter, maxUint256],
      }),
    })
    await measure('POST /v1/swap/tokens/ethereum/{key} (allowance given)', runs, () =>
      invoke(swapTokensEthereum, swapEvent()),
    )
    return figures
  } finally {
    counter.stop()
  }
}
