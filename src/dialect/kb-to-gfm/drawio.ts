/**
 * A draw.io diagram whose `src` is a local draw.io file (a pulled body, its
 * file downloaded beside the document) in the form authors write and GitHub
 * shows: a link to a `.drawio` file, an image of a `.drawio.svg` or
 * `.drawio.png`. Only where that form converts back to the same diagram
 * (`drawio-links.ts`): a link gives the default width, an image its own.
 * Any other diagram stays the dialect's `<iframe>`.
 */
import path from 'node:path'
import type {Image, Link, Paragraph} from 'mdast'
import type {Drawio} from '../../../plugins/types.js'
import {defaultDrawioWidth} from '../gfm-to-kb/drawio-links.js'
import {isLocalDrawio, urlPath} from '../local-url.js'

const imageFile = /\.drawio\.(?:svg|png)$/i

/** The link or image that reads back as `node`, or undefined when only the `<iframe>` does. */
function authoringForm(node: Drawio): Link | Image | undefined {
  const {url, width} = node
  if (!isLocalDrawio(url)) return undefined
  const file = urlPath(url)
  let name = path.posix.basename(file)
  try {
    name = decodeURIComponent(name)
  } catch {
    // Shown as written.
  }
  if (imageFile.test(file) && width !== undefined) {
    return {type: 'image', url, alt: name.replace(imageFile, ''), ...(width !== defaultDrawioWidth ? {width} : {})}
  }
  if (width !== defaultDrawioWidth) return undefined
  return {type: 'link', url, children: [{type: 'text', value: name}]}
}

/** The paragraph holding the authoring form of a draw.io diagram of a local file, or undefined when it has none. */
export function drawioAuthoringForm(node: Drawio): Paragraph | undefined {
  const form = authoringForm(node)
  return form && {type: 'paragraph', children: [form]}
}
