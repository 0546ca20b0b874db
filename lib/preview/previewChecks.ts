import { getAddress } from 'viem'
import { isNative, NATIVE_COIN } from '../constants'
import { Unprocessable } from '../errors'
import type { NetworkName } from '../networkNames'
import type { Preview } from './previewSequence'

/**
 * The issue of a native balance short of the transactions' value and fee cap, in place of a
 * shorter one the preview found for the value alone.
 */
export function withNativeShortfall(
  preview: Preview,
  shortfall: { required: bigint; available: bigint } | undefined,
): Preview {
  if (!shortfall) return preview
  const others = preview.issues.filter(
    (issue) => !(issue.type === 'insufficientBalance' && isNative(issue.token)),
  )
  const native = {
    type: 'insufficientBalance' as const,
    token: getAddress(NATIVE_COIN),
    required: shortfall.required.toString(),
    available: shortfall.available.toString(),
  }
  return { ...preview, issues: [native, ...others] }
}

/**
 * A `{key}` route sends nothing whose simulation failed (DECISIONS §10.2): 422 with the reason.
 * The other issues are the route's own checks (balance before it plans, approvals it sends).
 */
export function refuseFailedSimulation(preview: Preview, network: NetworkName): void {
  const failed = preview.issues.find((issue) => issue.type === 'simulationFailed')
  if (failed && failed.type === 'simulationFailed') {
    throw new Unprocessable(
      `the ${failed.kind} would revert on ${network}: ${failed.reason}; nothing was sent`,
    )
  }
}
