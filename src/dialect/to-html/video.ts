/** Video URLs of the four hosting services to their embed URLs. */

const rules: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [
    /^https?:\/\/(?:www\.|m\.)?youtube(?:-nocookie)?\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/|live\/)([\w-]{6,})/i,
    (m) => `https://www.youtube.com/embed/${m[1]}`
  ],
  [/^https?:\/\/youtu\.be\/([\w-]{6,})/i, (m) => `https://www.youtube.com/embed/${m[1]}`],
  [
    /^https?:\/\/(?:www\.)?rutube\.ru\/(?:video|play\/embed|shorts)\/([\da-f]{16,})/i,
    (m) => `https://rutube.ru/play/embed/${m[1]}`
  ],
  [
    /^https?:\/\/(?:www\.)?(?:vk\.com|vkvideo\.ru)\/video_ext\.php\?(.*)$/i,
    (m) => `https://vk.com/video_ext.php?${m[1]}`
  ],
  [
    /^https?:\/\/(?:www\.)?(?:vk\.com|vkvideo\.ru)\/(?:.*[?&/]z=)?video(-?\d+)_(\d+)/i,
    (m) => `https://vk.com/video_ext.php?oid=${m[1]}&id=${m[2]}`
  ],
  [/^https?:\/\/(?:www\.)?vimeo\.com\/(?:video\/)?(\d+)/i, (m) => `https://player.vimeo.com/video/${m[1]}`],
  [/^https?:\/\/player\.vimeo\.com\/video\/(\d+)/i, (m) => `https://player.vimeo.com/video/${m[1]}`]
]

/** The embed URL and service of a hosted video, or undefined for any other URL (a plain video file). */
export function videoEmbed(url: string): {src: string; service: string} | undefined {
  for (const [pattern, make] of rules) {
    const match = pattern.exec(url.trim())
    if (match)
      return {
        src: make(match),
        service: /youtu/i.test(url) ? 'youtube' : /rutube/i.test(url) ? 'rutube' : /vimeo/i.test(url) ? 'vimeo' : 'vk'
      }
  }
  return undefined
}
