import { RichTextEditor as MantineEditor } from '@mantine/tiptap';

/** The controls of the specification's rich text: headings (where the text has them), bold,
 * italic, underline, lists, blockquote and links. */
export function RichTextToolbar({ headings = false }: { headings?: boolean }) {
  return (
    <MantineEditor.Toolbar>
      {headings && (
        <MantineEditor.ControlsGroup>
          <MantineEditor.H1 />
          <MantineEditor.H2 />
          <MantineEditor.H3 />
        </MantineEditor.ControlsGroup>
      )}
      <MantineEditor.ControlsGroup>
        <MantineEditor.Bold />
        <MantineEditor.Italic />
        <MantineEditor.Underline />
      </MantineEditor.ControlsGroup>
      <MantineEditor.ControlsGroup>
        <MantineEditor.BulletList />
        <MantineEditor.OrderedList />
        <MantineEditor.Blockquote />
      </MantineEditor.ControlsGroup>
      <MantineEditor.ControlsGroup>
        <MantineEditor.Link />
        <MantineEditor.Unlink />
      </MantineEditor.ControlsGroup>
    </MantineEditor.Toolbar>
  );
}
