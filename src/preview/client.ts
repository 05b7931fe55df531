/**
 * The script of the preview page: listens to the server's events and, when
 * the folder changed, fetches the page's parts again and swaps them in,
 * keeping the scroll position, the open details blocks and the
 * navigation's folds and filter (no reload); and runs the navigation's
 * filter box and drawer (`client-nav.ts`).
 */
import {navScript} from './client-nav.js'
import {prefixes} from './routes.js'

/** The script's source, served at `prefixes.client`. */
export const clientScript = `(() => {
  'use strict'
  const status = document.createElement('div')
  status.className = 'kb-status'
  status.setAttribute('role', 'status')
  const setStatus = (state, text) => { status.dataset.state = state; status.textContent = text }
${navScript}
  let running = false
  let again = false

  async function update() {
    if (running) { again = true; return }
    running = true
    try {
      do {
        again = false
        const response = await fetch(${JSON.stringify(prefixes.fragment)} + '?path=' + encodeURIComponent(location.pathname), {cache: 'no-store'})
        // 404 still carries a page: the article was renamed or deleted.
        if (!response.ok && response.status !== 404) throw new Error('HTTP ' + response.status)
        swap(await response.json())
      } while (again)
      setStatus('live', 'live')
    } catch (error) {
      setStatus('offline', 'update failed: ' + error.message)
    } finally {
      running = false
    }
  }

  function swap(fragment) {
    const main = document.getElementById('kb-main')
    const nav = document.getElementById('kb-nav')
    const scrollX = window.scrollX, scrollY = window.scrollY
    const navScroll = nav ? nav.scrollTop : 0
    const open = Array.from(main.querySelectorAll('details'), (details) => details.open)
    main.innerHTML = fragment.main
    if (nav) {
      const holder = document.createElement('div')
      holder.innerHTML = fragment.nav
      const fresh = holder.firstElementChild
      keepNav(nav, fresh)
      nav.replaceWith(fresh)
      fresh.scrollTop = navScroll
    }
    main.querySelectorAll('details').forEach((details, index) => { if (index < open.length) details.open = open[index] })
    addHeadingLinks()
    document.title = fragment.documentTitle
    document.documentElement.dataset.version = String(fragment.version)
    window.scrollTo(scrollX, scrollY)
    document.dispatchEvent(new CustomEvent('kb-preview-updated', {detail: {version: fragment.version}}))
  }

  function connect() {
    const events = new EventSource(${JSON.stringify(prefixes.events)})
    let lost = false
    events.addEventListener('open', () => {
      setStatus('live', 'live')
      // After a lost connection the folder may have changed unseen.
      if (lost) update()
      lost = false
    })
    events.addEventListener('change', () => update())
    // While the folder is still read in the background: how far it got; at its end, the page with every problem.
    events.addEventListener('progress', (event) => {
      const progress = JSON.parse(event.data)
      const note = document.getElementById('kb-progress')
      if (progress.complete) update()
      else if (note) note.textContent = progress.text
    })
    events.addEventListener('error', () => { lost = true; setStatus('offline', 'preview server not reachable') })
  }

  const start = () => { document.body.appendChild(status); startNav(); connect() }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
  else start()
})()
`
