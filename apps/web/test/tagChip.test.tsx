import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TagChip } from '../src/ui/TagChip';

// Issue 20: tag chips on the request page were cut with an ellipsis. A chip now wraps its whole
// label instead of truncating it.

describe('a tag chip', () => {
  it('shows the whole label, wrapping instead of an ellipsis', () => {
    const label = 'documentType: Complete medical records including imaging reports';
    const html = renderToStaticMarkup(
      <MantineProvider>
        <TagChip>{label}</TagChip>
      </MantineProvider>,
    );
    expect(html).toContain(label);
    expect(html).toMatch(/white-space:\s*normal/);
    expect(html).toMatch(/text-overflow:\s*clip/);
    expect(html).toMatch(/text-transform:\s*none/);
  });
});
