/**
 * The catalog `kbsync --help` lists (`src/cli/commands/catalog.ts`) loads
 * each command by its name, and every command of the CLI is in it.
 */
import {describe, expect, it} from 'vitest'
import {commandCatalog} from '../../src/cli/commands/catalog.js'
import {commands} from '../../src/cli/commands/index.js'

describe('the command catalog', () => {
  it('loads, for each entry, the command of that name and summary', async () => {
    for (const entry of commandCatalog) {
      const command = await entry.load()
      expect([command.name, command.summary]).toEqual([entry.name, entry.summary])
    }
  })

  it('lists every command, in the order of the command list', () => {
    expect(commandCatalog.map((entry) => entry.name)).toEqual(commands.map((command) => command.name))
  })
})
