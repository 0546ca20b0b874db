// `npm run ws -- <access token> [topic]`: the WebSocket API from a shell (README, "Push"). Gets a
// ticket with the wallet's access token, connects, subscribes to the topic (trades unless named),
// prints every message it is sent, one JSON per line, and sends each line typed on stdin as a
// message (e.g. {"action":"resume","topic":"trades","sequence":3}). API_URL and WS_URL name the
// stack (the local one's defaults: npm start's ready block prints both).
import { createInterface } from 'node:readline'
import WebSocket from 'ws'

async function main() {
  const [token, topic = 'trades'] = process.argv.slice(2)
  if (!token) {
    console.error('usage: npm run ws -- <access token> [topic]')
    process.exit(2)
  }
  const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:3000'
  const wsUrl = process.env.WS_URL ?? 'ws://127.0.0.1:3001'
  const answer = await fetch(`${apiUrl}/api/v1/ws/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  })
  const body = (await answer.json()) as { result?: { ticket: string } }
  if (!body.result) {
    console.error(`no ticket: ${answer.status} ${JSON.stringify(body)}`)
    process.exit(1)
  }
  const socket = new WebSocket(`${wsUrl}?ticket=${body.result.ticket}`)
  socket.on('open', () => socket.send(JSON.stringify({ action: 'subscribe', topic })))
  socket.on('message', (data) => console.log(Buffer.from(data as Buffer).toString('utf8')))
  socket.on('unexpected-response', (_request, response) => {
    console.error(`connection refused: ${response.statusCode}`)
    process.exit(1)
  })
  socket.on('close', () => process.exit(0))
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim()) socket.send(line)
  })
}

void main()
