/**
 * Media elements: `<img>` (sized from `width`/`height` or a `style`
 * width), `<picture>` (its image), `<video>` and `<iframe>` (the dialect's
 * video for the hosts the platform embeds, its diagram for the draw.io
 * viewer, a link for any other page).
 */
import type {Element} from 'hast'
import type {Handle, State} from 'hast-util-to-mdast'
import type {Image, Link, Nodes} from 'mdast'
import type {Drawio, Video} from '../../../../plugins/types.js'
import {videoEmbed} from '../../to-html/video.js'
import {attribute, findElement, pixels, styleValue} from './attributes.js'
import {warnAt, type Conversion} from './context.js'
import {isScriptUrl} from '../../../trust/url-scheme.js'

/** The pixel size `name` (`width` or `height`) of an image: attribute first, then `style`; other units are reported. */
function imageSize(conversion: Conversion, element: Element, name: 'width' | 'height'): number | undefined {
  for (const value of [attribute(element, name), styleValue(element, name)]) {
    if (value === undefined) continue
    const size = pixels(value)
    if (size !== undefined) return size
    warnAt(
      conversion,
      element,
      'kb-html-image-size',
      `\`${name}: ${value}\` on \`<img>\` is not a size in pixels; the image keeps its natural ${name}.`
    )
    return undefined
  }
  return undefined
}

/** `<img>`: an image node (sized when a pixel size is given), so the scan uploads it like any image. */
export function imageHandler(conversion: Conversion): Handle {
  return (state: State, element: Element) => {
    const url = attribute(element, 'src')
    if (url === undefined || isScriptUrl(url, 'image')) {
      warnAt(
        conversion,
        element,
        'kb-html-image',
        '`<img>` without a `src` it can show shows nothing; it is left out. Give it an image address or remove it.'
      )
      return undefined
    }
    const image: Image = {
      type: 'image',
      url,
      title: attribute(element, 'title') ?? null,
      alt: attribute(element, 'alt') ?? ''
    }
    const width = imageSize(conversion, element, 'width')
    const height = imageSize(conversion, element, 'height')
    if (width !== undefined) image.width = width
    if (height !== undefined) image.height = height
    state.patch(element, image)
    return image
  }
}

/** `<picture>`: its `<img>`, or the first candidate of its first `<source>`. */
export function pictureHandler(conversion: Conversion): Handle {
  const image = imageHandler(conversion)
  return (state: State, element: Element, parent) => {
    const img = findElement(element, 'img')
    if (img) return image(state, img, parent)
    const source = findElement(element, 'source')
    const url = source && attribute(source, 'srcSet')?.trim().split(/\s+/)[0]
    if (!url) return state.all(element)
    return image(state, {...element, tagName: 'img', properties: {src: url, alt: attribute(element, 'alt')}}, parent)
  }
}

/** A link to `url` with `text`, for embedded content the dialect cannot show. */
function linkTo(state: State, element: Element, url: string, text: string): Link {
  const link: Link = {type: 'link', url, title: null, children: [{type: 'text', value: text}]}
  state.patch(element, link)
  return link
}

/** `<video>`: the dialect's video for a web address; a local file becomes a link, reported. */
export function videoHandler(conversion: Conversion): Handle {
  return (state: State, element: Element) => {
    const source = findElement(element, 'source')
    const url = attribute(element, 'src') ?? (source && attribute(source, 'src'))
    if (url === undefined) {
      warnAt(conversion, element, 'kb-html-video', '`<video>` without `src` shows nothing; its text is kept.')
      return state.all(element)
    }
    if (/^https?:\/\//i.test(url)) return patched(state, element, {type: 'video', url})
    warnAt(
      conversion,
      element,
      'kb-html-video',
      `The video \`${url}\` is not a web address the platform can play; written as a link to it. Host it (for example on YouTube or Vimeo) and use that address.`
    )
    return linkTo(state, element, url, attribute(element, 'title') ?? url)
  }
}

const drawioHosts = /^https?:\/\/(?:viewer|app|embed)\.diagrams\.net\/|^https?:\/\/(?:www\.)?draw\.io\//i

/** `<iframe>`: a video of the four hosts, a draw.io diagram, else a link to the page, reported. */
export function iframeHandler(conversion: Conversion): Handle {
  return (state: State, element: Element) => {
    const url = attribute(element, 'src')
    if (url === undefined || isScriptUrl(url)) {
      warnAt(conversion, element, 'kb-html-iframe', '`<iframe>` without a page address shows nothing; it is left out.')
      return undefined
    }
    if (attribute(element, 'dataNode') === 'drawio' || drawioHosts.test(url)) {
      const width = pixels(attribute(element, 'width'))
      return patched(state, element, width === undefined ? {type: 'drawio', url} : {type: 'drawio', url, width})
    }
    if (videoEmbed(url)) return patched(state, element, {type: 'video', url})
    warnAt(
      conversion,
      element,
      'kb-html-iframe',
      `The platform embeds only videos (YouTube, Rutube, VK Video, Vimeo) and draw.io diagrams; the frame of \`${url}\` is written as a link to it.`
    )
    return linkTo(state, element, url, attribute(element, 'title') ?? url)
  }
}

function patched(state: State, element: Element, node: Video | Drawio): Nodes {
  state.patch(element, node)
  return node
}
