import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only add contention between end-to-end suites.
    maxWorkers: 2,
    // `npm run test:coverage` (vitest run --coverage): the shipped code's coverage, with a floor CI enforces.
    // Code the tests run in spawned CLI processes is not counted (V8 coverage sees this process's workers only).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'plugins/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // A failing test must not hide the figures: the floor and the failures are both reported.
      reportOnFailure: true,
      // The floor: just under the whole suite's figures of 27 November 2026 after issue 30 (statements 91.92 %, branches
      // 84.67 %, functions 93.99 %, lines 93.91 %; figures move by about 0.1 between runs). Code run by the spawned CLI is
      // not counted. Raise it when coverage rises; a change that lowers it fails CI.
      thresholds: {statements: 91.5, branches: 84.3, functions: 93.5, lines: 93.5}
    }
  }
})
