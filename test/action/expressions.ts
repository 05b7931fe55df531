/**
 * The part of GitHub Actions' expression language an action's `action.yml`
 * may use, evaluated as the runner does: context paths (`inputs.cache-state`,
 * `github.event.repository.default_branch`, `steps.run.outputs.exit-code`),
 * string literals, `==`/`!=` (strings compared case-insensitively), `&&`/`||`
 * (returning an operand, as in JavaScript), `!`, parentheses, and the status
 * functions `success()`, `failure()`, `always()`. Anything else throws, so an
 * action using more than this fails its test instead of passing by accident.
 */

/** A context value: a string, or an object of them. */
export type ContextValue = string | {[key: string]: ContextValue}

/** The contexts of a composite action's step. */
export interface Contexts {
  inputs: Record<string, string>
  github: {[key: string]: ContextValue}
  steps: Record<string, {outputs: Record<string, string>}>
}

type Value = string | boolean

/** Replaces every `${{ expr }}` in `text` with its value (as the runner formats it: `true`, `false`, text). */
export function interpolate(text: string, contexts: Contexts, failed: boolean): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) =>
    String(evaluateValue(expression, contexts, failed))
  )
}

/** The truth of an `if:` condition (with or without `${{ }}` around it). */
export function evaluate(condition: string, contexts: Contexts, failed: boolean): boolean {
  const bare = condition.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1')
  const value = evaluateValue(bare, contexts, failed)
  // A condition without a status function implies success().
  const hasStatus = /\b(?:success|failure|always|cancelled)\(\)/.test(bare)
  return truthy(value) && (hasStatus || !failed)
}

function truthy(value: Value): boolean {
  return value !== false && value !== ''
}

function evaluateValue(expression: string, contexts: Contexts, failed: boolean): Value {
  const tokens = tokenize(expression)
  let at = 0
  const peek = () => tokens[at]
  const take = (expected?: string): string => {
    const token = tokens[at++]
    if (token === undefined || (expected !== undefined && token !== expected))
      throw new Error(`expression "${expression}": expected ${expected ?? 'more'} at ${token ?? 'the end'}`)
    return token
  }
  const primary = (): Value => {
    const token = take()
    if (token === '(') {
      const value = or()
      take(')')
      return value
    }
    if (token === '!') return !truthy(primary())
    if (token.startsWith("'")) return token.slice(1, -1).replaceAll("''", "'")
    if (token === 'true' || token === 'false') return token === 'true'
    if (/^(?:success|failure|always|cancelled)$/.test(token)) {
      take('(')
      take(')')
      return token === 'always' ? true : token === 'success' ? !failed : token === 'failure' ? failed : false
    }
    return lookup(token, contexts)
  }
  const comparison = (): Value => {
    const left = primary()
    const operator = peek()
    if (operator !== '==' && operator !== '!=') return left
    take()
    const equal = String(left).toLowerCase() === String(primary()).toLowerCase()
    return operator === '==' ? equal : !equal
  }
  const and = (): Value => {
    let value = comparison()
    while (peek() === '&&') {
      take()
      const right = comparison()
      value = truthy(value) ? right : value
    }
    return value
  }
  const or = (): Value => {
    let value = and()
    while (peek() === '||') {
      take()
      const right = and()
      value = truthy(value) ? value : right
    }
    return value
  }
  const value = or()
  if (at !== tokens.length) throw new Error(`expression "${expression}": unexpected ${tokens[at]}`)
  return value
}

function tokenize(expression: string): string[] {
  const tokens = expression.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[()!]|[A-Za-z_][\w.-]*/g) ?? []
  if (tokens.join('') !== expression.replace(/\s+/g, '')) throw new Error(`expression "${expression}": not understood`)
  return tokens
}

/** A dotted context path; a missing property is '' as on the runner, an unknown context throws. */
function lookup(pathText: string, contexts: Contexts): Value {
  const [head, ...rest] = pathText.split('.')
  if (head !== 'inputs' && head !== 'github' && head !== 'steps')
    throw new Error(`unknown context "${head}" in ${pathText}`)
  let value: ContextValue | undefined = contexts[head]
  for (const key of rest) value = typeof value === 'object' ? value[key] : undefined
  return typeof value === 'string' ? value : ''
}
