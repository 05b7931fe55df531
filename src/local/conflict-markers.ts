/**
 * Unresolved merge conflicts in a document: git's markers (`<<<<<<< `,
 * `=======`, `>>>>>>> `) left in a file by a merge nobody finished. Pushed,
 * they would publish both sides and the markers to every reader, so each
 * one is an error at its line and the plan stops before any write.
 */
import type {Diagnostic} from './diagnostic.js'

// Git writes its markers at the start of a line, seven characters long, the outer ones followed by a label or nothing.
const opening = /^<{7}(?:[ \t]|$)/
const middle = /^={7}[ \t]*$/
const closing = /^>{7}(?:[ \t]|$)/
const fence = /^ {0,3}(`{3,}|~{3,})/

/**
 * One error per conflict of `text` (the file `file`, its lines as in the
 * file): an opening marker followed by the middle and the closing one,
 * outside code fences (a fenced example of a conflict is content). A lone
 * `=======` is a setext heading's underline, never a conflict by itself.
 */
export function conflictMarkerDiagnostics(text: string, file: string): Diagnostic[] {
  // Every conflict opens with a marker: most files hold none, and are not split into lines for nothing.
  if (!text.includes('<'.repeat(7))) return []
  const found: Diagnostic[] = []
  let fenceMark: string | undefined
  let open: {line: number; middle: boolean} | undefined
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.replace(/\r$/, '')
    const fenced = fence.exec(line)
    if (fenceMark !== undefined) {
      // A fence closes with a run of the same character, at least as long, and nothing after it.
      if (fenced && fenced[1]![0] === fenceMark[0] && fenced[1]!.length >= fenceMark.length && isBareFence(line))
        fenceMark = undefined
      continue
    }
    if (fenced && !open) {
      fenceMark = fenced[1]!
      continue
    }
    if (opening.test(line)) open = {line: index + 1, middle: false}
    else if (open && middle.test(line)) open.middle = true
    else if (open?.middle && closing.test(line)) {
      found.push(markerDiagnostic(file, open.line))
      open = undefined
    }
  }
  return found
}

function isBareFence(line: string): boolean {
  return /^ {0,3}(?:`+|~+)[ \t]*$/.test(line)
}

function markerDiagnostic(file: string, line: number): Diagnostic {
  return {
    severity: 'error',
    file,
    line,
    message: 'An unresolved merge conflict: the file holds conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`)',
    hint: 'Resolve the conflict: keep the text you want, remove the markers, then push again',
    rule: 'conflict-markers'
  }
}
