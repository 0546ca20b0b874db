import '../../support/env'
import { erc20Abi, maxUint256, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { uniswapV2Router02Abi } from '../../../lib/local/uniswapV2Artifacts'
import { NATIVE_COIN } from '../../../lib/constants'
import { listTrades } from '../../../lib/db/trade'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'
import { approvalAmounts } from '../../../lib/swap/routerAllowance'
import { deployment, devnet } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { bearer } from '../../support/marketFixtures'
import { signInWithWallet } from '../../support/walletSignIn'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const swapTokensEthereum = networkRoute('swapTokens', 'ethereum')
const transferEthereum = networkRoute('transfer', 'ethereum')

// A token shaped like USDT on Ethereum (DECISIONS §7.2): transfer, transferFrom and approve return
// nothing, and approve refuses to change a non-zero allowance to another non-zero value. Pooled
// with WETH on the shared ethereum devnet by this file.
const TETHER_LIKE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract TetherLike {
  string public name = "Demo Tether-like";
  string public symbol = "dUSDT";
  uint8 public decimals = 6;
  uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  constructor(uint256 supply) {
    totalSupply = supply;
    balanceOf[msg.sender] = supply;
    emit Transfer(address(0), msg.sender, supply);
  }
  function transfer(address to, uint256 value) external { move(msg.sender, to, value); }
  function transferFrom(address from, address to, uint256 value) external {
    uint256 allowed = allowance[from][msg.sender];
    require(allowed >= value, "allowance");
    if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
    move(from, to, value);
  }
  function approve(address spender, uint256 value) external {
    require(value == 0 || allowance[msg.sender][spender] == 0, "reset the allowance to 0 first");
    allowance[msg.sender][spender] = value;
    emit Approval(msg.sender, spender, value);
  }
  function move(address from, address to, uint256 value) private {
    require(balanceOf[from] >= value, "balance");
    balanceOf[from] -= value;
    balanceOf[to] += value;
    emit Transfer(from, to, value);
  }
}
`

const client = () => devnet('ethereum')
let token: `0x${string}`
let abi: Awaited<ReturnType<typeof compileSolidity>>['abi']
let deployerAccount: ReturnType<typeof privateKeyToAccount>

beforeAll(async () => {
  const artifact = await compileSolidity({
    sourceName: 'TetherLike.sol',
    source: TETHER_LIKE,
    contractName: 'TetherLike',
  })
  abi = artifact.abi
  const deployer = privateKeyToAccount(generatePrivateKey())
  await client().setBalance({ address: deployer.address, value: parseEther('1000') })
  const chain = client().chain
  const deployed = await client().waitForTransactionReceipt({
    hash: await client().deployContract({
      account: deployer,
      chain,
      abi,
      bytecode: artifact.bytecode,
      args: [parseUnits('1000000000', 6)],
    }),
  })
  token = deployed.contractAddress ?? '0x'
  const { router } = deployment('ethereum')
  const send = async (hash: `0x${string}`) => {
    const receipt = await client().waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error('setup transaction reverted')
  }
  await send(
    await client().writeContract({
      account: deployer,
      chain,
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, maxUint256],
    }),
  )
  await send(
    await client().writeContract({
      account: deployer,
      chain,
      address: router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidityETH',
      args: [token, parseUnits('3000000', 6), 0n, 0n, deployer.address, 2n ** 40n],
      value: parseEther('1000') / 2n,
    }),
  )
  // The tests' wallets get their tokens from the deployer.
  deployerAccount = deployer
}, 120_000)

/** A signed-in wallet holding 1,000 dUSDT that once approved the router for 1 dUSDT. */
async function walletWithSmallAllowance() {
  const privateKey = generatePrivateKey()
  const account = privateKeyToAccount(privateKey)
  const chain = client().chain
  await client().setBalance({ address: account.address, value: parseEther('10') })
  await client().waitForTransactionReceipt({
    hash: await client().writeContract({
      account: deployerAccount,
      chain,
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account.address, parseUnits('1000', 6)],
    }),
  })
  await client().waitForTransactionReceipt({
    hash: await client().writeContract({
      account,
      chain,
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [deployment('ethereum').swapRouter, parseUnits('1', 6)],
    }),
  })
  const { access } = await signInWithWallet(privateKey)
  return { privateKey, account, access }
}

const balanceOf = (owner: `0x${string}`) =>
  client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

describe('a USDT-style token (no return values, allowance reset to 0 first)', () => {
  it('plans no approval, the amount, or a reset then the amount', () => {
    expect(approvalAmounts(10n, 5n)).toEqual([])
    expect(approvalAmounts(0n, 5n)).toEqual([5n])
    expect(approvalAmounts(1n, 5n)).toEqual([0n, 5n])
  })

  it('swaps for ether when a smaller allowance was given before: resets it, approves, swaps', async () => {
    const { privateKey, account, access } = await walletWithSmallAllowance()
    const before = await balanceOf(account.address)

    const response = await invoke(
      swapTokensEthereum,
      httpEvent({
        route: 'swapTokensEthereum',
        pathParameters: { key: privateKey },
        headers: bearer(access),
        body: {
          amount: '250',
          address0: token,
          decimals0: 6,
          address1: NATIVE_COIN,
          decimals1: 18,
        },
      }),
    )

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: `0x${string}` }
    const receipt = await client().waitForTransactionReceipt({ hash: txId })
    expect(receipt.status).toBe('success')
    expect(before - (await balanceOf(account.address))).toBe(parseUnits('250', 6))
    const { trades } = await listTrades({
      wallet: account.address,
      limit: 10,
      offset: 0,
      direction: 'ASC',
    })
    expect(trades.map((trade) => [trade.type, trade.amount])).toEqual([
      ['approval', '0'],
      ['approval', '250'],
      ['swap', '250'],
    ])
  })

  it('transfers it though transfer returns nothing', async () => {
    const { privateKey, account, access } = await walletWithSmallAllowance()
    const to = privateKeyToAccount(generatePrivateKey()).address

    const response = await invoke(
      transferEthereum,
      httpEvent({
        route: 'transferEthereum',
        pathParameters: { key: privateKey },
        headers: bearer(access),
        body: { to, amount: '12.5', token, decimals: 6 },
      }),
    )

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: `0x${string}` }
    expect((await client().waitForTransactionReceipt({ hash: txId })).status).toBe('success')
    expect(await balanceOf(to)).toBe(parseUnits('12.5', 6))
    expect(await balanceOf(account.address)).toBe(parseUnits('987.5', 6))
  })
})
