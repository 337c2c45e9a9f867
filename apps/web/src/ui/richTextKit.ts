import StarterKit from '@tiptap/starter-kit';

const ALLOWED_LINK = /^(https:|mailto:)/i;

/** The rich text of the specification in TipTap: headings 1 to 3, no code, rule or strike, links
 * to https and mailto only. `onLink` hears each link the editor considers, and whether it may. */
export function specStarterKit(onLink?: (url: string, allowed: boolean) => void) {
  return StarterKit.configure({
    heading: { levels: [1, 2, 3] },
    code: false,
    codeBlock: false,
    horizontalRule: false,
    strike: false,
    link: {
      openOnClick: false,
      protocols: ['mailto'],
      isAllowedUri: (url) => {
        const allowed = ALLOWED_LINK.test(url);
        onLink?.(url, allowed);
        return allowed;
      },
    },
  });
}
