import '../../support/env'
import { describe, expect, it } from 'vitest'
import { getProjectMarket } from '../../../lib/db/marketStats'
import { watchProject } from '../../../lib/db/watchlist'
import { createProject, randomAddress } from '../../support/marketFixtures'
import { spyOnDbSend } from '../../support/dbSendSpy'

// DynamoDB Local runs transactions one at a time, so it never cancels one for a conflict; real
// DynamoDB does (TransactionConflict) when two touch the same item at once. Injected here.
function conflict(): Error {
  return Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
  })
}

describe('watchlist transactions', () => {
  it('retries a watch that lost a race to another transaction, and counts it once', async () => {
    const project = await createProject()
    const wallet = randomAddress()
    const send = spyOnDbSend()
    send.mockRejectedValueOnce(conflict()).mockRejectedValueOnce(conflict())

    const outcome = await watchProject(wallet, project.id)

    expect(send).toHaveBeenCalledTimes(3)
    expect(outcome).toBe('added')
    expect((await getProjectMarket(project.id))?.market.watchLists).toBe(1)
  })
})
