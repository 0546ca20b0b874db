import '../../support/env'
import { type Address, erc20Abi, maxUint256, parseEther, parseUnits, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../../lib/constants'
import { bestRoute } from '../../../lib/routing/quote/bestRoute'
import { db } from '../../../lib/db/client'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'
import { uniswapV2Router02Abi } from '../../../lib/local/uniswapV2Artifacts'
import { deployment, devnet } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { bearer } from '../../support/marketFixtures'
import { countRequests, type RequestCounter } from '../../support/requestCounters'
import { expectSwapMatchesQuote, quoteFor } from '../../support/swapChecks'
import { signInWithWallet } from '../../support/walletSignIn'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const quoteEthereum = networkRoute('quote', 'ethereum')
const swapTokensEthereum = networkRoute('swapTokens', 'ethereum')

// A token whose balances live where the quote's balance-slot scan does not look (a mapping
// behind 16 other slots): no simulation can hold it, so its quote is the search's figure on its
// best V2 route, exact for a token without a fee, and the swap is that route's SwapRouter02 call.
// Pooled with WETH by this file.
const FAR_SLOT_TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract FarSlotToken {
  uint256[16] private padding;
  mapping(address => uint256) private balances;
  mapping(address => mapping(address => uint256)) public allowance;
  string public name = "Demo Far Slot";
  string public symbol = "dFAR";
  uint8 public decimals = 18;
  uint256 public totalSupply;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  constructor(uint256 supply) { totalSupply = supply; balances[msg.sender] = supply; }
  function balanceOf(address owner) external view returns (uint256) { return balances[owner]; }
  function transfer(address to, uint256 value) external returns (bool) {
    move(msg.sender, to, value);
    return true;
  }
  function transferFrom(address from, address to, uint256 value) external returns (bool) {
    uint256 allowed = allowance[from][msg.sender];
    require(allowed >= value, "allowance");
    if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
    move(from, to, value);
    return true;
  }
  function approve(address spender, uint256 value) external returns (bool) {
    allowance[msg.sender][spender] = value;
    emit Approval(msg.sender, spender, value);
    return true;
  }
  function move(address from, address to, uint256 value) private {
    require(balances[from] >= value, "balance");
    balances[from] -= value;
    balances[to] += value;
    emit Transfer(from, to, value);
  }
}
`

const client = () => devnet('ethereum')
let token: Address
let deployer: ReturnType<typeof privateKeyToAccount>

async function mined(hash: `0x${string}`) {
  const receipt = await client().waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error('setup transaction reverted')
  return receipt
}

beforeAll(async () => {
  const artifact = await compileSolidity({
    sourceName: 'FarSlotToken.sol',
    source: FAR_SLOT_TOKEN,
    contractName: 'FarSlotToken',
  })
  deployer = privateKeyToAccount(generatePrivateKey())
  await client().setBalance({ address: deployer.address, value: parseEther('10000') })
  const chain = client().chain
  const deployed = await mined(
    await client().deployContract({
      account: deployer,
      chain,
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [parseEther('1000000000')],
    }),
  )
  token = deployed.contractAddress ?? '0x'
  const { router } = deployment('ethereum')
  await mined(
    await client().writeContract({
      account: deployer,
      chain,
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, maxUint256],
    }),
  )
  await mined(
    await client().writeContract({
      account: deployer,
      chain,
      address: router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidityETH',
      args: [token, parseEther('3000000'), 0n, 0n, deployer.address, 2n ** 40n],
      value: parseEther('1000'),
    }),
  )
}, 120_000)

describe('a token whose balance slot the scan does not find', () => {
  let counter: RequestCounter

  beforeAll(() => {
    counter = countRequests(db())
  })

  afterAll(() => counter.stop())

  const sell = (amount: string) => ({
    amount,
    address0: token,
    decimals0: 18,
    address1: NATIVE_COIN,
    decimals1: 18,
  })

  it('is quoted by the search unsimulated: the scan beside the pools, then decimals()', async () => {
    const query = {
      ...sell('100'),
      decimals0: '18',
      decimals1: '18',
    }
    const ask = async () => {
      counter.take()
      const response = await invoke(
        quoteEthereum,
        httpEvent({ route: 'quoteEthereum', queryStringParameters: query }),
      )
      expect(response.status).toBe(200)
      return counter.take().rpc
    }

    const first = await ask()
    const again = await ask()

    // The scan's eth_call beside the pools, gas price and block; the miss is remembered (one
    // call fewer after). No simulation ran the token's code, so its decimals() is asked in the
    // second round trip, capped (issue 22).
    expect(first.roundTrips).toBe(2)
    expect([again.roundTrips, again.calls]).toEqual([2, first.calls - 1])
    const best = (tokenIn: Address) =>
      bestRoute({
        network: 'ethereum',
        amountIn: parseEther('1'),
        tokenIn,
        tokenOut: deployment('ethereum').wrappedNative,
        nativeIn: false,
        nativeOut: true,
        recipient: zeroAddress,
      })
    const [far, zoo] = await Promise.all([best(token), best(deployment('ethereum').token('USDT'))])
    expect([far.simulated, far.amountOut === far.searchedAmountOut]).toEqual([false, true])
    expect(far.routes.flatMap((route) => route.hops.map((hop) => hop.pool.protocol))).toEqual([
      'v2',
    ])
    expect(zoo.simulated).toBe(true)
  })

  it('swaps through its V2 route for exactly the quoted amount', async () => {
    const privateKey = generatePrivateKey()
    const account = privateKeyToAccount(privateKey)
    await client().setBalance({ address: account.address, value: parseEther('10') })
    await mined(
      await client().writeContract({
        account: deployer,
        chain: client().chain,
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [account.address, parseUnits('1000', 18)],
      }),
    )
    const { access } = await signInWithWallet(privateKey)
    const body = sell('250')
    const quote = await quoteFor('ethereum', body)

    const response = await invoke(
      swapTokensEthereum,
      httpEvent({
        route: 'swapTokensEthereum',
        pathParameters: { key: privateKey },
        headers: bearer(access),
        body: { ...body, slippageBps: 0 },
      }),
    )

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: `0x${string}` }
    await expectSwapMatchesQuote('ethereum', {
      owner: account.address,
      hash: txId,
      request: body,
      quote,
    })
  })
})
