import '../../support/env'
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseAbi, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uniswapV2SwapAbi } from '../../../lib/chain/abis'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { loadUntrustedCallConfig } from '../../../lib/config'
import { NATIVE_COIN } from '../../../lib/constants'
import { db } from '../../../lib/db/client'
import { listTrades } from '../../../lib/db/trade'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'
import { uniswapV2Router02Abi } from '../../../lib/local/uniswapV2Artifacts'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { deployment, devnet, type FundedAccount, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { randomAddress } from '../../support/marketFixtures'
import { countRequests } from '../../support/requestCounters'
import { signInWithWallet } from '../../support/walletSignIn'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const quoteEthereum = networkRoute('quote', 'ethereum')

// Issue 22 row 3 (DECISIONS §8.2, "Untrusted code is capped"): a token that behaves until its
// owner flips a switch, then burns every gas unit any call gives it. Its pool with the wrapped
// coin exists, so a quote's simulations really run its code. Every eth_call, eth_estimateGas and
// simulated call a request makes carries the cap (checked at the transport, as the node gets
// them), a request makes at most its budget of them, and the prepare and submit routes refuse the
// token before any chain call.

const BURNER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
contract GasBurnerToken is ERC20 {
  address private immutable owner;
  bool public burning;
  constructor(uint256 supply) ERC20("Gas Burner", "BURN") { owner = msg.sender; _mint(msg.sender, supply); }
  function ignite() external { require(msg.sender == owner, "owner"); burning = true; }
  function burnAll() private view {
    if (!burning) return;
    uint256 x;
    while (gasleft() > 0) x = uint256(keccak256(abi.encode(x)));
  }
  function decimals() public view override returns (uint8) { burnAll(); return 18; }
  function balanceOf(address account) public view override returns (uint256) { burnAll(); return super.balanceOf(account); }
  function allowance(address holder, address spender) public view override returns (uint256) { burnAll(); return super.allowance(holder, spender); }
  function transfer(address to, uint256 value) public override returns (bool) { burnAll(); return super.transfer(to, value); }
  function transferFrom(address from, address to, uint256 value) public override returns (bool) { burnAll(); return super.transferFrom(from, to, value); }
  function approve(address spender, uint256 value) public override returns (bool) { burnAll(); return super.approve(spender, value); }
}
`

const burnerAbi = parseAbi(['constructor(uint256 supply)', 'function ignite()'])

interface SentCall {
  method: string
  /** Each call's `gas` (for eth_simulateV1, each simulated call's); undefined when absent. */
  gas: Array<bigint | undefined>
}

/** The eth_call, eth_estimateGas and eth_simulateV1 requests the service sends while `run` runs. */
async function capturedCalls<Result>(run: () => Promise<Result>) {
  const calls: SentCall[] = []
  const onRequest = (text: unknown) => {
    if (typeof text !== 'string') return
    const body = [JSON.parse(text) as unknown].flat() as Array<{
      method?: string
      params?: unknown[]
    }>
    for (const { method, params = [] } of body) {
      const gasOf = (call: unknown) => {
        const gas = (call as { gas?: string } | undefined)?.gas
        return gas === undefined ? undefined : BigInt(gas)
      }
      if (method === 'eth_call' || method === 'eth_estimateGas') {
        calls.push({ method, gas: [gasOf(params[0])] })
      } else if (method === 'eth_simulateV1') {
        const blocks = (params[0] as { blockStateCalls: Array<{ calls: unknown[] }> })
          .blockStateCalls
        calls.push({ method, gas: blocks.flatMap((block) => block.calls.map(gasOf)) })
      }
    }
  }
  rpcRequestChannel.subscribe(onRequest)
  try {
    const result = await run()
    return { result, calls }
  } finally {
    rpcRequestChannel.unsubscribe(onRequest)
  }
}

function expectEveryCallCapped(calls: readonly SentCall[]) {
  const { gasPerCall, callsPerRequest } = loadUntrustedCallConfig()
  expect(gasPerCall).toBe(3_000_000n)
  const capped = calls.flatMap((call) => call.gas)
  expect(capped.length).toBeGreaterThan(0)
  expect(capped.length).toBeLessThanOrEqual(callsPerRequest)
  for (const gas of capped) {
    expect(gas).toBeDefined()
    expect(gas).toBeLessThanOrEqual(gasPerCall)
  }
}

let burner: Address
let owner: FundedAccount

beforeAll(async () => {
  owner = await fundedAccount('ethereum', { native: parseEther('1000') })
  const artifact = await compileSolidity({
    sourceName: 'GasBurnerToken.sol',
    source: BURNER_SOURCE,
    contractName: 'GasBurnerToken',
  })
  const client = devnet('ethereum')
  const mined = async (hash: `0x${string}`) => {
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`${hash} reverted`)
    return receipt
  }
  const deployed = await mined(
    await owner.wallet.deployContract({
      abi: burnerAbi,
      bytecode: artifact.bytecode,
      args: [parseEther('1000000')],
    }),
  )
  burner = deployed.contractAddress as Address
  const { router } = deployment('ethereum')
  await mined(
    await owner.wallet.writeContract({
      address: burner,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, maxUint256],
    }),
  )
  await mined(
    await owner.wallet.writeContract({
      address: router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidityETH',
      args: [burner, parseEther('100000'), 0n, 0n, owner.address, maxUint256],
      value: parseEther('100'),
    }),
  )
  await mined(
    await owner.wallet.writeContract({ address: burner, abi: burnerAbi, functionName: 'ignite' }),
  )
}, 120_000)

const quote = (address0: Address, address1: Address) =>
  invoke(
    quoteEthereum,
    httpEvent({
      route: 'quoteEthereum',
      queryStringParameters: {
        amount: '1',
        address0,
        decimals0: '18',
        address1,
        decimals1: '18',
      },
    }),
  )

describe('a token whose every call burns all its gas', () => {
  it.each([
    ['buying it', () => quote(NATIVE_COIN, burner)],
    ['selling it', () => quote(burner, NATIVE_COIN)],
  ])(
    'the anonymous quote (%s) answers 422, every call it makes capped, within the budget',
    async (_label, ask) => {
      const { result: response, calls } = await capturedCalls(ask)

      expect(response.status).toBe(422)
      expect(response.body).toEqual({
        ok: false,
        error: { code: 422, message: expect.any(String) },
      })
      expectEveryCallCapped(calls)
    },
  )

  describe('with a signed-in wallet', () => {
    let wallet: FundedAccount & { token: string }
    let counter: ReturnType<typeof countRequests>

    beforeAll(async () => {
      const funded = await fundedAccount('ethereum', { tokens: { LINK: parseEther('10') } })
      wallet = { ...funded, token: (await signInWithWallet(funded.privateKey)).access }
      counter = countRequests(db())
    })

    afterAll(() => counter?.stop())

    it.each([
      [
        'a swap into it',
        () => ({
          operation: 'swap/tokens/ethereum' as const,
          body: {
            amount: '1',
            address0: deployment('ethereum').token('LINK'),
            decimals0: 18,
            address1: burner,
            decimals1: 18,
          },
        }),
      ],
      [
        'a transfer of it',
        () => ({
          operation: 'transfer/tokens/ethereum' as const,
          body: { to: randomAddress(), amount: '1', token: burner },
        }),
      ],
    ])('prepare refuses %s with 422 before any chain call', async (_label, request) => {
      const { operation, body } = request()
      counter.take()

      const response = await prepareRoute(operation, wallet.token, body)

      expect(response.status).toBe(422)
      expect(response.body.error?.message).toMatch(/is not a catalog token on ethereum/)
      expect(counter.take().rpc.calls).toBe(0)
    })

    it.each([
      [
        'its transfer',
        () => ({
          to: burner,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [randomAddress(), 1n],
          }),
          value: 0n,
          refusal: /neither the router nor a catalog token/,
          signer: undefined,
        }),
      ],
      [
        'its transfer signed by another wallet',
        () => ({
          to: burner,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [randomAddress(), 1n],
          }),
          value: 0n,
          refusal: /is not signed by the signed-in wallet/,
          signer: privateKeyToAccount(generatePrivateKey()),
        }),
      ],
      [
        'a router swap into it',
        () => {
          const { router, wrappedNative } = deployment('ethereum')
          return {
            to: router,
            data: encodeFunctionData({
              abi: uniswapV2SwapAbi,
              functionName: 'swapExactETHForTokens',
              args: [0n, [wrappedNative, burner], wallet.address, maxUint256],
            }),
            value: parseEther('1'),
            refusal: /swaps .* not a catalog token/,
            signer: undefined,
          }
        },
      ],
    ])(
      'submit refuses %s with 422 before any chain call, and nothing is sent',
      async (_label, transaction) => {
        const { to, data, value, refusal, signer } = transaction()
        const client = devnet('ethereum')
        const nonce = await client.getTransactionCount({
          address: wallet.address,
          blockTag: 'pending',
        })
        const block = await client.getBlock()
        const signed = await (signer ?? wallet.account).signTransaction({
          type: 'eip1559',
          chainId: client.chain.id,
          nonce,
          gas: 300_000n,
          maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + 1n,
          maxPriorityFeePerGas: 1n,
          to,
          data,
          value,
        })
        counter.take()

        const response = await submitRoute('ethereum', wallet.token, [signed])

        expect(response.status).toBe(422)
        expect(response.body.error?.message).toMatch(refusal)
        expect(counter.take().rpc.calls).toBe(0)
        expect(
          await client.getTransactionCount({ address: wallet.address, blockTag: 'pending' }),
        ).toBe(nonce)
        const { count } = await listTrades({
          wallet: wallet.address,
          limit: 1,
          offset: 0,
          direction: 'ASC',
        })
        expect(count).toBe(0)
      },
    )
  })
})
