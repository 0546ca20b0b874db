import '../../support/env'
import {
  type Address,
  encodePacked,
  erc20Abi,
  getAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  maxUint256,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../../lib/constants'
import type { NetworkName } from '../../../lib/networkNames'
import type { Preview, PreviewIssue } from '../../../lib/preview/previewSequence'
import { prepareRoute } from '../../support/clientSigningRoutes'
import {
  balanceOf,
  deployment,
  devnet,
  devnetWallet,
  fundFromDemoAccount,
} from '../../support/devnetAccounts'
import { TESTED_NETWORKS } from '../../support/networkCases'
import { tradeOnOwnCopies } from '../../support/ownCopies'
import { type PermitOffer, signOffer } from '../../support/permitSwaps'
import {
  casesOf,
  expectedIssues,
  formatBase,
  fromOf,
  type Held,
  operationOf,
  type PreviewCase,
  refusedOf,
  side,
  sizeOf,
} from '../../support/previewCases'
import { measuredChanges, mine, minedAlone, previewChanges } from '../../support/previewChecks'
import type { PreparedTransaction } from '../../support/signPrepared'
import { signInWithWallet } from '../../support/walletSignIn'

// A preview of every transaction (DECISIONS §10.2) on generated prepares, judged by the chain.
// One fast-check seed (printed; PREVIEW_SEED replays it) draws, per network, swaps of both types
// (token to token, native in and out, the fee-on-transfer token), transfers (tokens and the
// coin), swaps short of an allowance that is not zero, permit swaps from USDC (both prepares),
// wallets short of token0, of the coin or of gas alone, and native transfers to contracts that
// revert. Every answer's `issues` must be exactly the expected list; every sequence without a
// short balance is mined, alone, right after the previewed block, and every balance the preview
// names, and the wallet's, the recipient's and the router's in every moved token, read on chain
// before and after, must equal the preview to the unit (the gas fee set apart), as must the
// router's allowance. The file trades on copies of the devnets of its own: nothing else mines on
// them, so no retry is needed.

tradeOnOwnCopies(TESTED_NETWORKS)

const SEED = process.env.PREVIEW_SEED ? Number(process.env.PREVIEW_SEED) : Date.now() % 2 ** 31
console.log(`previewGenerated: seed ${SEED} (PREVIEW_SEED=${SEED} replays it)`)

interface Answer {
  transactions: PreparedTransaction[]
  preview: Preview
  permit?: PermitOffer
  quote?: { amountInMax?: Hex }
}

const ONE = parseEther('1')

/** The case's wallet, recipient and body, the wallet funded and its allowance set. */
async function arrange(testCase: PreviewCase, index: number) {
  const { network } = testCase
  const key = keccak256(
    encodePacked(['uint256', 'string', 'uint256'], [BigInt(SEED), network, BigInt(index)]),
  )
  const account = privateKeyToAccount(key)
  const recipient = privateKeyToAccount(keccak256(key)).address
  const dex = deployment(network)
  const from = fromOf(testCase)
  const amount =
    testCase.kind === 'swap' && testCase.type === 'exactOut'
      ? sizeOf(network, testCase.to, testCase.percent)
      : sizeOf(network, from, testCase.percent)
  // What the wallet needs of `from`, as far as known before a quote (an exact output's input is
  // about the pair's typical size, a few times over at most).
  const ample =
    testCase.kind === 'swap' && testCase.type === 'exactOut'
      ? 3n * sizeOf(network, from, 100)
      : 2n * amount
  const shortage = testCase.kind === 'revert' ? 'none' : testCase.shortage
  const heldShare = testCase.kind === 'revert' ? 0 : testCase.held
  const guess = testCase.kind === 'swap' && testCase.type === 'exactOut' ? ample / 12n : amount
  const short = (guess * BigInt(heldShare)) / 100n
  const nativeHeld =
    from === 'NATIVE'
      ? shortage === 'native'
        ? short
        : ample + ONE
      : shortage === 'gas'
        ? 0n
        : ONE
  const tokenHeld = from === 'NATIVE' ? 0n : shortage === 'token' ? short : ample
  if (tokenHeld > 0n) {
    await fundFromDemoAccount(network, account.address, { tokens: { [from]: tokenHeld } })
  }
  if (
    testCase.kind === 'swap' &&
    (testCase.allowance === 'short' || testCase.allowance === 'enough')
  ) {
    const allowance =
      testCase.allowance === 'enough'
        ? maxUint256 / 2n
        : (guess * BigInt(testCase.held)) / 100n || 1n
    await devnet(network).setBalance({ address: account.address, value: ONE })
    const hash = await devnetWallet(network, account).writeContract({
      address: side(network, from).address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [dex.swapRouter, allowance],
    })
    await devnet(network).waitForTransactionReceipt({ hash })
  }
  await devnet(network).setBalance({ address: account.address, value: nativeHeld })
  return {
    privateKey: key,
    account,
    recipient,
    body: bodyOf(testCase, amount, recipient, dex.swapRouter),
  }
}

function bodyOf(testCase: PreviewCase, amount: bigint, recipient: Address, router: Address) {
  const { network } = testCase
  if (testCase.kind === 'revert') {
    const to = testCase.target === 'ROUTER' ? router : side(network, testCase.target).address
    return { to, amount: formatBase(amount, 18) }
  }
  if (testCase.kind === 'transfer') {
    const token = side(network, testCase.token)
    return {
      to: recipient,
      amount: formatBase(amount, token.decimals),
      token: token.address,
      decimals: token.decimals,
    }
  }
  const [zero, one] = [side(network, testCase.from), side(network, testCase.to)]
  return {
    amount: formatBase(amount, testCase.type === 'exactOut' ? one.decimals : zero.decimals),
    address0: zero.address,
    decimals0: zero.decimals,
    address1: one.address,
    decimals1: one.decimals,
    type: testCase.type,
  }
}

const tokenOf = (testCase: PreviewCase): Address => side(testCase.network, fromOf(testCase)).address

async function heldBy(network: NetworkName, owner: Address, token: Address): Promise<Held> {
  const native = await balanceOf(network, owner, NATIVE_COIN)
  if (token === NATIVE_COIN) return { native, token: native, allowance: maxUint256 }
  const allowance = await devnet(network).readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, deployment(network).swapRouter],
  })
  return { native, token: await balanceOf(network, owner, token), allowance }
}

/** The kinds of the sequence: the approvals a short allowance needs (approvalAmounts), then it. */
function expectedKinds(testCase: PreviewCase, held: Held, need: bigint, permitted: boolean) {
  if (testCase.kind !== 'swap') return ['transfer']
  if (testCase.from === 'NATIVE' || permitted || held.allowance >= need) return ['swap']
  return held.allowance === 0n ? ['approval', 'swap'] : ['approval', 'approval', 'swap']
}

/** One prepare and the checks of its answer: the sequence's kinds, the permit offer, the issues. */
async function prepared(
  testCase: PreviewCase,
  wallet: { address: Address; access: string },
  body: Record<string, unknown>,
  permitted: boolean,
) {
  const { network } = testCase
  const token = tokenOf(testCase)
  const held = await heldBy(network, wallet.address, token)
  const response = await prepareRoute(operationOf(testCase), wallet.access, body)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  const answer = response.body.result as Answer
  const need =
    testCase.kind === 'swap' && testCase.type === 'exactOut'
      ? BigInt(answer.quote?.amountInMax ?? '0x0')
      : sizeOf(network, fromOf(testCase), testCase.percent)
  const kinds = expectedKinds(testCase, held, need, permitted)
  expect(answer.transactions.map((transaction) => transaction.kind)).toEqual(kinds)
  const offered = testCase.kind === 'swap' && testCase.from === 'USDC' && kinds[0] === 'approval'
  expect(answer.permit !== undefined).toBe(offered)
  const issues = expectedIssues(testCase, {
    owner: wallet.address,
    held,
    need,
    transactions: answer.transactions,
    permitted,
  })
  expect(answer.preview.issues).toEqual(issues)
  return { answer, held, issues }
}

const readable = (changes: Map<string, bigint>) =>
  Object.fromEntries([...changes].map(([key, change]) => [key, change.toString()]))

/** Mines the sequence and compares the preview with the chain's balances and allowance. */
async function expectMinedAsPreviewed(
  testCase: PreviewCase,
  wallet: { address: Address; privateKey: Hex },
  recipient: Address,
  answer: Answer,
) {
  const { network } = testCase
  const { preview } = answer
  const receipts = await mine(network, wallet.privateKey, answer.transactions)
  expect(receipts.map((receipt) => receipt.status)).toEqual(
    preview.transactions.map((transaction) =>
      transaction.status === 'success' ? 'success' : 'reverted',
    ),
  )
  const blocks = receipts.map((receipt) => receipt.blockNumber)
  expect(await minedAlone(network, preview, blocks)).toBe(true)
  const router = getAddress(deployment(network).swapRouter)
  const moved =
    testCase.kind === 'swap'
      ? [side(network, testCase.from).address, side(network, testCase.to).address]
      : [tokenOf(testCase)]
  const pairs: [Address, Address][] = [
    ...preview.balanceChanges.map((change): [Address, Address] => [change.address, change.token]),
    ...[NATIVE_COIN, ...moved].flatMap((token) =>
      [wallet.address, recipient, router].map((holder): [Address, Address] => [holder, token]),
    ),
  ]
  const measured = await measuredChanges(network, wallet.address, pairs, receipts)
  // As plain objects of decimal strings, so that a failure shows which balance differs.
  expect(readable(previewChanges(preview))).toEqual(readable(measured))
  const token = tokenOf(testCase)
  if (token === NATIVE_COIN || testCase.kind !== 'swap') {
    expect(preview.allowanceChanges).toEqual([])
    return
  }
  const allowanceAt = (blockNumber: bigint) =>
    devnet(network).readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [wallet.address, router],
      blockNumber,
    })
  const before = await allowanceAt((blocks[0] ?? 0n) - 1n)
  const after = await allowanceAt(blocks.at(-1) ?? 0n)
  expect(preview.allowanceChanges).toEqual(
    before === after
      ? []
      : [{ token, owner: wallet.address, spender: router, before: `${before}`, after: `${after}` }],
  )
}

interface Tally {
  prepares: number
  /** How many answers or mined sequences of each label (labelsOf) the network met. */
  seen: Record<string, number>
}

/** What a mined case exercised: its sequence, its type, the coin's side, FOT, a permit, a revert. */
function labelsOf(testCase: PreviewCase, answer: Answer): string[] {
  const sequence = answer.transactions.map((transaction) => transaction.kind).join('+')
  const reverted = answer.preview.transactions.some(
    (transaction) => transaction.status !== 'success',
  )
  if (testCase.kind !== 'swap') {
    return [`mined ${sequence}`, `mined ${fromOf(testCase)} ${reverted ? 'reverted' : 'sent'}`]
  }
  return [
    `mined ${sequence}`,
    `mined ${testCase.type}`,
    ...(testCase.from === 'NATIVE' ? ['mined native in'] : []),
    ...(testCase.to === 'NATIVE' ? ['mined native out'] : []),
    ...([testCase.from, testCase.to].includes('FOT') ? ['mined FOT swap'] : []),
    ...(testCase.allowance === 'permit' ? ['mined permit swap'] : []),
  ]
}

/** Labels every network's cases meet whatever the seed (casesOf's covering turns). */
const REQUIRED_LABELS = [
  'issue insufficientBalance native',
  'issue insufficientBalance token',
  'issue insufficientAllowance',
  'issue simulationFailed swap',
  'issue simulationFailed transfer',
  'mined approval+swap',
  'mined approval+approval+swap',
  'mined swap',
  'mined transfer',
  'mined exactIn',
  'mined exactOut',
  'mined native in',
  'mined native out',
  'mined FOT swap',
  'mined permit swap',
  'mined NATIVE sent',
  'mined FOT sent',
  'mined NATIVE reverted',
  'refused',
  'not mined',
]

function count(tally: Tally, labels: readonly string[]): void {
  for (const label of labels) tally.seen[label] = (tally.seen[label] ?? 0) + 1
}

const issueLabel = (issue: PreviewIssue): string =>
  issue.type === 'insufficientBalance'
    ? `issue ${issue.type} ${isAddressEqual(issue.token, NATIVE_COIN) ? 'native' : 'token'}`
    : issue.type === 'simulationFailed'
      ? `issue ${issue.type} ${issue.kind}`
      : `issue ${issue.type}`

/** Arranges, prepares (twice for a permit), and mines what has no short balance. */
async function runCase(testCase: PreviewCase, index: number, tally: Tally) {
  const { network } = testCase
  const { privateKey, account, recipient, body } = await arrange(testCase, index)
  const { access } = await signInWithWallet(privateKey)
  const wallet = { address: account.address, access, privateKey }
  const refusal = refusedOf(testCase)
  if (refusal) {
    const response = await prepareRoute(operationOf(testCase), access, body)
    tally.prepares += 1
    expect(response.status).toBe(422)
    expect(response.body.error?.message).toBe(refusal)
    count(tally, ['refused'])
    return
  }
  let { answer, issues } = await prepared(testCase, wallet, body, false)
  tally.prepares += 1
  count(tally, issues.map(issueLabel))
  if (testCase.kind === 'swap' && testCase.allowance === 'permit') {
    const offer = answer.permit
    if (!offer) throw new Error('no permit offered for USDC')
    const signature = await signOffer(account, offer)
    const permit = { deadline: offer.deadline, signature }
    ;({ answer, issues } = await prepared(testCase, wallet, { ...body, permit }, true))
    tally.prepares += 1
    count(tally, issues.map(issueLabel))
  }
  if (issues.some((issue) => issue.type === 'insufficientBalance')) {
    // Nothing is mined: the answer named the shortage, and the service sent nothing.
    const blockNumber = await devnet(network).getBlockNumber()
    expect(blockNumber).toBe(BigInt(answer.preview.blockNumber))
    count(tally, ['not mined'])
    return
  }
  await expectMinedAsPreviewed(testCase, wallet, recipient, answer)
  count(tally, labelsOf(testCase, answer))
}

/** Every case of a network in order; the first failure names its case and the seed. */
async function runNetwork(network: NetworkName): Promise<Tally> {
  const cases = casesOf(network, SEED + TESTED_NETWORKS.indexOf(network))
  const tally: Tally = { prepares: 0, seen: {} }
  for (const [index, testCase] of cases.entries()) {
    try {
      await runCase(testCase, index, tally)
    } catch (error) {
      throw new Error(
        `case ${index} of seed ${SEED} (PREVIEW_SEED=${SEED}): ${JSON.stringify(testCase)}`,
        { cause: error },
      )
    }
  }
  return tally
}

describe.concurrent('previews of generated prepares, judged by the chain', () => {
  it.each(TESTED_NETWORKS)(
    '%s: every answer names exactly the expected issues; every mined sequence changes the balances and the allowance exactly as previewed',
    async (network) => {
      const tally = await runNetwork(network)
      console.log(`previewGenerated ${network}: ${JSON.stringify(tally)}`)
      expect(tally.prepares).toBeGreaterThanOrEqual(100)
      const missing = REQUIRED_LABELS.filter((label) => !tally.seen[label])
      expect(missing).toEqual([])
    },
    300_000,
  )
})
