/**
 * Output of the CLI: the reporter (colour, JSON, quiet/verbose, progress,
 * status line), GitHub annotations and step summaries.
 */
export {createReporter, formatDiagnostic, type OutputStream, type Reporter, type ReporterOptions} from './reporter.js'
export {
  annotated,
  annotation,
  annotationPath,
  annotationsPerRule,
  annotationData,
  escapeData,
  escapeProperty,
  type AnnotationOptions
} from './annotations.js'
export {diagnosticLines, type DiagnosticLinesOptions} from './diagnostic-lines.js'
export {diagnosticCounts, withCounts, type DiagnosticCounts} from './counts.js'
export {diagnosticsMarkdown} from './diagnostics-summary.js'
export {warningLimitExceeded} from './warning-limit.js'
export {colourEnabled, palette, stripAnsi, type Palette} from './colours.js'
export {progressLine} from './progress.js'
export {plural} from './lines.js'
export {planSummaryMarkdown, pushSummaryMarkdown} from './summary.js'
export {reporterFor} from './context.js'
