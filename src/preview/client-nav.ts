/**
 * The navigation's part of the page script: the filter box (typing keeps
 * the entries whose title holds the text and their ancestors, opened; no
 * server round trip), the folds a writer opened or closed (kept, by the
 * topic's address, when live reload swaps the navigation in), the drawer
 * (closed by Escape or by following a link), the `#` link beside each
 * heading that has an id (to copy a link to it, as on docs sites), and
 * landing on a heading named without the clobber prefix (`#setup` finds
 * `id="user-content-setup"`, as on GitHub). Source text, spliced into the
 * script `client.ts` serves.
 */

/** Functions the page script calls: `navFilter(nav)`, `keepNav(old, fresh)`, `addHeadingLinks()`, `startNav()`. */
export const navScript = `
  // Folds as the writer left them before a filter opened its own, by topic address.
  let foldsBeforeFilter = null
  const topicOf = (details) => details.querySelector(':scope > summary > a')?.getAttribute('href') ?? ''
  const foldsOf = (nav) => new Map(Array.from(nav.querySelectorAll('details'), (details) => [topicOf(details), details.open]))
  const applyFolds = (nav, folds) => nav.querySelectorAll('details').forEach((details) => {
    const open = folds.get(topicOf(details))
    if (open !== undefined) details.open = open
  })

  function filterItem(li, query) {
    const link = li.querySelector(':scope > a, :scope > details > summary > a')
    const own = query !== '' && (link?.textContent ?? '').toLowerCase().includes(query)
    let inside = false
    li.querySelectorAll(':scope > details > ul > li').forEach((child) => { if (filterItem(child, query)) inside = true })
    const shown = query === '' || own || inside
    li.hidden = !shown
    li.classList.toggle('kb-nav-match', own)
    const details = li.querySelector(':scope > details')
    if (details && query !== '') details.open = inside
    return shown
  }

  function navFilter(nav) {
    const input = nav.querySelector('#kb-nav-filter')
    const query = (input?.value ?? '').trim().toLowerCase()
    if (query !== '' && foldsBeforeFilter === null) foldsBeforeFilter = foldsOf(nav)
    let any = false
    nav.querySelectorAll('.kb-nav-tree > li').forEach((li) => { if (filterItem(li, query)) any = true })
    if (query === '' && foldsBeforeFilter !== null) {
      applyFolds(nav, foldsBeforeFilter)
      foldsBeforeFilter = null
    }
    const empty = nav.querySelector('#kb-nav-empty')
    if (empty) empty.hidden = any
  }

  // Live reload replaces the navigation: the fresh one keeps the folds, the filter text and the scroll of the old.
  function keepNav(old, fresh) {
    const folds = foldsOf(old)
    const query = old.querySelector('#kb-nav-filter')?.value ?? ''
    const focused = document.activeElement?.id === 'kb-nav-filter'
    applyFolds(fresh, folds)
    const input = fresh.querySelector('#kb-nav-filter')
    if (input && query !== '') {
      input.value = query
      navFilter(fresh)
    }
    if (input && focused) input.focus()
  }

  function addHeadingLinks() {
    document.querySelectorAll('#kb-article :is(h1, h2, h3, h4, h5, h6)[id], .kb-page-title[id]').forEach((heading) => {
      if (heading.querySelector(':scope > .kb-heading-link')) return
      const link = document.createElement('a')
      link.className = 'kb-heading-link'
      link.href = '#' + heading.id
      link.setAttribute('aria-label', 'Link to this section')
      // The mark is the stylesheet's (::before), so the heading's text stays its title.
      heading.append(link)
    })
  }

  function landOnHash() {
    const id = decodeURIComponent(location.hash.slice(1))
    if (id === '' || document.getElementById(id)) return
    document.getElementById('user-content-' + id)?.scrollIntoView()
  }

  // A long tree opens scrolled to the current page, as docs sites' sidebars do.
  function showCurrent() {
    const nav = document.getElementById('kb-nav')
    const current = nav?.querySelector('a[aria-current="page"]')
    if (!nav || !current) return
    const top = current.getBoundingClientRect().top - nav.getBoundingClientRect().top
    if (top < 0 || top > nav.clientHeight - 40) nav.scrollTop += top - nav.clientHeight / 3
  }

  function startNav() {
    const drawer = document.getElementById('kb-drawer')
    showCurrent()
    document.addEventListener('input', (event) => {
      if (event.target?.id === 'kb-nav-filter') navFilter(document.getElementById('kb-nav'))
    })
    document.addEventListener('click', (event) => {
      if (drawer && event.target?.closest?.('#kb-nav a')) drawer.checked = false
    })
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && drawer?.checked) drawer.checked = false
    })
    window.addEventListener('hashchange', landOnHash)
    addHeadingLinks()
    landOnHash()
  }
`
