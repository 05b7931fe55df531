/**
 * API fields (Mintlify `<ParamField path|query|body|header type required
 * default>` and `<ResponseField name type required>`): the field's name in
 * code, its type and whether it is required as a bold line, then its
 * description.
 */
import type {Handle} from 'hast-util-to-mdast'
import type {PhrasingContent} from 'mdast'
import {attribute} from '../html/attributes.js'
import {unwrapped} from './shared.js'

/** The attributes that name the field (one of them is given). */
const nameAttributes = ['path', 'query', 'body', 'header', 'name', 'param']

/** A field: `` `name` `` (type, required, default: x), then its description. */
export const fieldHandler: Handle = (state, element) => {
  const name = nameAttributes.map((key) => attribute(element, key)).find((value) => value !== undefined)
  const details = [
    attribute(element, 'type'),
    element.properties.required === undefined || element.properties.required === false ? undefined : 'required',
    attribute(element, 'default') === undefined ? undefined : `default: ${attribute(element, 'default')}`
  ].filter((part): part is string => part !== undefined)
  const label: PhrasingContent[] = name === undefined ? [] : [{type: 'inlineCode', value: name}]
  if (details.length > 0) label.push({type: 'text', value: `${label.length > 0 ? ' ' : ''}(${details.join(', ')})`})
  return unwrapped(state, element, label.length === 0 ? undefined : label)
}
