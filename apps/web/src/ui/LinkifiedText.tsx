import { detectLinks } from '@dossier/core';

/** Plain text with its https URLs and e-mail addresses as links. */
export function LinkifiedText({ text }: { text: string }) {
  return (
    <>
      {detectLinks(text).map((segment, i) =>
        'href' in segment ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one text never move
          <a key={i} href={segment.href} target="_blank" rel="noopener noreferrer">
            {segment.text}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one text never move
          <span key={i}>{segment.text}</span>
        ),
      )}
    </>
  );
}
