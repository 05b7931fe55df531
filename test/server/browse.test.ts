import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../src/server/index.js'

let server: RunningServer
let articleId = ''
let topicId = ''
let guid = ''

beforeAll(async () => {
  server = await startServer({seed: 3})
  const auth = {authorization: `Bearer ${server.token}`}
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array([137, 80, 78, 71])]), 'pic.png')
  guid = (
    (await (await fetch(`${server.filesUrl}/v4/files/upload`, {method: 'POST', headers: auth, body: form})).json()) as {
      guid: string
    }
  ).guid
  const post = async (body: object) =>
    (await (
      await fetch(`${server.apiUrl}/knowledgebase`, {
        method: 'POST',
        headers: {...auth, 'content-type': 'application/json'},
        body: JSON.stringify(body)
      })
    ).json()) as {id: string}
  topicId = (await post({type: 'topic', title: 'Guides <b>'})).id
  articleId = (
    await post({
      title: 'Install',
      parent_topic_id: topicId,
      body: `<div data-node="hintBlock" data-color="red">\n\nCareful.\n\n</div>\n\n![pic](${guid})\n\n<script>alert(1)</script>\n`
    })
  ).id
})
afterAll(() => server.close())

describe('the browse pages of the local server', () => {
  it('lists the tree with escaped titles and links to each item', async () => {
    const html = await (await fetch(`${server.filesUrl}/`)).text()
    expect(html).toContain(`/browse/topic/${topicId}`)
    expect(html).toContain('Guides &lt;b&gt;')
    expect(html).not.toContain('Guides <b>')
  })

  it('renders an article with the preview rendering, its images served without a token', async () => {
    const html = await (await fetch(`${server.filesUrl}/browse/article/${articleId}`)).text()
    expect(html).toContain('data-node="hintBlock"')
    expect(html).toContain(`/browse/file/${guid}`)
    expect(html).not.toContain('<script>alert')
    const image = await fetch(`${server.filesUrl}/browse/file/${guid}`)
    expect(image.status).toBe(200)
    expect([...new Uint8Array(await image.arrayBuffer())]).toEqual([137, 80, 78, 71])
  })

  it('answers 404 for unknown items', async () => {
    expect((await fetch(`${server.filesUrl}/browse/article/NOPE`)).status).toBe(404)
  })
})
