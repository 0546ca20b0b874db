import middy from '@middy/core'
import { fanOut, type StreamRecord } from '../../lib/ws/fanOut'

// The table's stream (trade items only, by the filter patterns in serverless.yml) to the
// subscribed connections.
export const handler = middy(async (event: { Records: StreamRecord[] }) => fanOut(event.Records))
