import {describe, expect, it} from 'vitest'
import {altTextNodes} from '../../src/sync/shared/image-alt.js'

describe('the text an image published without its file leaves', () => {
  it('shows what reads as a tag in its alt text as inline code (redux-docs: a capture of `<UserPage>`)', () => {
    expect(altTextNodes('React DevTools Profiler render capture - <UserPage>')).toEqual([
      {type: 'text', value: 'React DevTools Profiler render capture - '},
      {type: 'inlineCode', value: '<UserPage>'}
    ])
    expect(altTextNodes('<a> and </b x="1"> then')).toEqual([
      {type: 'inlineCode', value: '<a>'},
      {type: 'text', value: ' and '},
      {type: 'inlineCode', value: '</b x="1">'},
      {type: 'text', value: ' then'}
    ])
  })

  it('keeps other alt text as it is, comparisons included', () => {
    expect(altTextNodes('a < b > c, 1<2')).toEqual([{type: 'text', value: 'a < b > c, 1<2'}])
  })
})
