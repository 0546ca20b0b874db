import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  parseUnits,
  toHex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { uniswapV2SwapAbi } from '../chain/abis'
import { NATIVE_COIN } from '../constants'

// Request and result examples of the client-signing routes, whose bodies a client builds from
// several parts. Mainnet addresses: Uniswap V2 on Ethereum (chain 1), PancakeSwap V2 on BNB Chain
// (56). The wallet is anvil's public test account 3, so the submit examples are real signatures.

export interface RouteExample {
  body: unknown
  result: unknown
}

// The published test mnemonic of anvil and hardhat: never a real wallet.
const EXAMPLE_SIGNER = mnemonicToAccount(
  'test test test test test test test test test test test junk',
  { addressIndex: 3 },
)
const WALLET = EXAMPLE_SIGNER.address
const RECIPIENT: Address = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
const ETHEREUM = {
  chainId: 1,
  router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
  weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  link: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
} as const
const ALTCHAIN = {
  chainId: 56,
  router: '0x10ED43C718714eb63d5aA57B78B54704E256024E',
  wbnb: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
  cake: '0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82',
} as const
const DEADLINE = 1_795_000_000n
const FEES = { maxFeePerGas: toHex(24_000_000_000n), maxPriorityFeePerGas: toHex(1_000_000_000n) }

interface UnsignedExample {
  kind: string
  description: string
  type: 'eip1559'
  chainId: number
  nonce: number
  gas: Hex
  maxFeePerGas: Hex
  maxPriorityFeePerGas: Hex
  to: Address
  data: Hex
  value: Hex
}

function unsigned(
  chainId: number,
  nonce: number,
  fields: {
    kind: string
    description: string
    gas: bigint
    to: Address
    data: Hex
    value?: bigint
  },
): UnsignedExample {
  return {
    kind: fields.kind,
    description: fields.description,
    type: 'eip1559',
    chainId,
    nonce,
    gas: toHex(fields.gas),
    ...FEES,
    to: fields.to,
    data: fields.data,
    value: toHex(fields.value ?? 0n),
  }
}

interface TokenSwap {
  chainId: number
  router: Address
  symbolIn: string
  amountIn: string
  symbolOut: string
  decimalsOut: number
  amountOutMin: string
  quote: number
  /** tokenIn first, tokenOut last. */
  path: Address[]
}

function tokenSwapExample(swap: TokenSwap) {
  const tokenIn = swap.path[0] as Address
  const amountIn = parseUnits(swap.amountIn, 18)
  const amountOutMin = parseUnits(swap.amountOutMin, swap.decimalsOut)
  return {
    body: {
      amount: swap.amountIn,
      address0: tokenIn,
      decimals0: 18,
      address1: swap.path[swap.path.length - 1],
      decimals1: swap.decimalsOut,
      slippageBps: 50,
    },
    result: {
      transactions: [
        unsigned(swap.chainId, 7, {
          kind: 'approval',
          description: `approve ${swap.amountIn} ${swap.symbolIn} for the router`,
          gas: 69_300n,
          to: tokenIn,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [swap.router, amountIn],
          }),
        }),
        unsigned(swap.chainId, 8, {
          kind: 'swap',
          description: `swap ${swap.amountIn} ${swap.symbolIn} for at least ${swap.amountOutMin} ${swap.symbolOut}`,
          gas: 231_000n,
          to: swap.router,
          data: encodeFunctionData({
            abi: uniswapV2SwapAbi,
            functionName: 'swapExactTokensForTokens',
            args: [amountIn, amountOutMin, swap.path, WALLET, DEADLINE],
          }),
        }),
      ],
      quote: {
        quote: swap.quote,
        amount: Number(swap.amountIn),
        decimal: swap.decimalsOut,
        amountOutMin: toHex(amountOutMin),
        path: swap.path,
      },
    },
  }
}

const linkForUsdc = tokenSwapExample({
  chainId: ETHEREUM.chainId,
  router: ETHEREUM.router,
  symbolIn: 'LINK',
  amountIn: '40',
  symbolOut: 'USDC',
  decimalsOut: 6,
  amountOutMin: '557.34051',
  quote: 560.141,
  path: [ETHEREUM.link, ETHEREUM.weth, ETHEREUM.usdc],
})

const cakeForWbnb = tokenSwapExample({
  chainId: ALTCHAIN.chainId,
  router: ALTCHAIN.router,
  symbolIn: 'CAKE',
  amountIn: '40',
  symbolOut: 'WBNB',
  decimalsOut: 18,
  amountOutMin: '0.152',
  quote: 0.1528,
  path: [ALTCHAIN.cake, ALTCHAIN.wbnb],
})

const bnbForCake = {
  body: {
    amount: '0.5',
    address0: NATIVE_COIN,
    decimals0: 18,
    address1: ALTCHAIN.cake,
    decimals1: 18,
    slippageBps: 100,
  },
  result: {
    transactions: [
      unsigned(ALTCHAIN.chainId, 3, {
        kind: 'swap',
        description: 'swap 0.5 BNB for at least 128.7 CAKE',
        gas: 180_000n,
        to: ALTCHAIN.router,
        value: parseUnits('0.5', 18),
        data: encodeFunctionData({
          abi: uniswapV2SwapAbi,
          functionName: 'swapExactETHForTokens',
          args: [parseUnits('128.7', 18), [ALTCHAIN.wbnb, ALTCHAIN.cake], WALLET, DEADLINE],
        }),
      }),
    ],
    quote: {
      quote: 130,
      amount: 0.5,
      decimal: 18,
      amountOutMin: toHex(parseUnits('128.7', 18)),
      path: [ALTCHAIN.wbnb, ALTCHAIN.cake],
    },
  },
}

const transferExample = (chainId: number, token: Address, symbol: string) => ({
  body: { to: RECIPIENT, amount: '12.5', token, decimals: 18 },
  result: {
    transactions: [
      unsigned(chainId, 4, {
        kind: 'transfer',
        description: `transfer 12.5 ${symbol} to ${RECIPIENT}`,
        gas: 78_000n,
        to: token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [RECIPIENT, parseUnits('12.5', 18)],
        }),
      }),
    ],
  },
})

/** The submit example of a prepare example: its transactions signed by the example wallet. */
async function submitExample(prepared: { result: { transactions: UnsignedExample[] } }) {
  const transactions = await Promise.all(
    prepared.result.transactions.map((transaction) =>
      EXAMPLE_SIGNER.signTransaction({
        type: 'eip1559',
        chainId: transaction.chainId,
        nonce: transaction.nonce,
        gas: BigInt(transaction.gas),
        maxFeePerGas: BigInt(transaction.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(transaction.maxPriorityFeePerGas),
        to: transaction.to,
        data: transaction.data,
        value: BigInt(transaction.value),
      }),
    ),
  )
  const txIds = transactions.map((signed) => keccak256(signed))
  return { body: { transactions }, result: { txId: txIds[txIds.length - 1], txIds } }
}

/** Examples keyed by the function's name in serverless.yml. */
export async function routeExamples(): Promise<Record<string, RouteExample>> {
  return {
    prepareSwapTokensEthereum: linkForUsdc,
    prepareSwapTokensAltchain: cakeForWbnb,
    prepareSwapNativeAltchain: bnbForCake,
    prepareTransferEthereum: transferExample(ETHEREUM.chainId, ETHEREUM.link, 'LINK'),
    prepareTransferAltchain: transferExample(ALTCHAIN.chainId, ALTCHAIN.cake, 'CAKE'),
    submitEthereum: await submitExample(linkForUsdc),
    submitAltchain: await submitExample(cakeForWbnb),
  }
}
