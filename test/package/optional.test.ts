/** A missing optional package (a library-only install) is an error that names it and how to install it. */
import {describe, expect, it} from 'vitest'
import {loadOptional, MissingPackageError, resolveOptional} from '../../src/optional.js'

const notFound = (message: string, code = 'ERR_MODULE_NOT_FOUND') => Object.assign(new Error(message), {code})

describe('optional packages', () => {
  it('a missing package becomes a MissingPackageError naming it and the install command', async () => {
    const load = () =>
      Promise.reject(notFound("Cannot find package 'playwright-core' imported from /x/mermaid-render.js"))
    const error = await loadOptional('playwright-core', load).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MissingPackageError)
    expect((error as MissingPackageError).packageName).toBe('playwright-core')
    expect(String(error)).toMatch(/optional package "playwright-core".*npm install playwright-core/)
  })

  it('a resolved path inside a missing package says the same', () => {
    const resolve = () => {
      throw notFound("Cannot find module 'mermaid/dist/mermaid.min.js'", 'MODULE_NOT_FOUND')
    }
    expect(() => resolveOptional('mermaid', resolve)).toThrow(/npm install mermaid/)
  })

  it('any other failure, or a missing package it needs, is passed on as it is', async () => {
    const other = notFound("Cannot find package 'oniguruma-to-es' imported from /x/shiki.js")
    await expect(loadOptional('shiki', () => Promise.reject(other))).rejects.toBe(other)
    await expect(loadOptional('shiki', async () => 'loaded')).resolves.toBe('loaded')
  })
})
