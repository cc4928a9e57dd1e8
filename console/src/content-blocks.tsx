import { useState } from 'react';
import type { ContentBlock, ContentBlockType } from '@dealer/contracts/content';
import { Button } from '@dealer/ui/button';
import { BlockFields } from './block-fields';
import { blockHeadings, blockTypes, blockWords, contentFields, newBlockId, type BlockAction } from './content-model';
import { FieldMessage, type SiteLocation, type Upload } from './content-fields';

type Props = {
  blocks: ContentBlock[];
  dispatch: (action: BlockAction) => void;
  /** The server's messages for each block, by block id. */
  errors: Record<string, Record<string, string>>;
  /** A message about the list as a whole (too many blocks). */
  listError: string | null;
  disabled: boolean;
  upload: Upload;
  locations: SiteLocation[] | null;
};

/**
 * The blocks the site shows in order: each under its heading ("Rich text 1") with buttons to move it up
 * or down and to remove it, and a block of any type added at the end.
 */
export function BlocksEditor({ blocks, dispatch, errors, listError, disabled, upload, locations }: Props) {
  const [adding, setAdding] = useState<ContentBlockType>('rich_text');
  const headings = blockHeadings(blocks);

  return (
    <section className="dc-blocks" aria-labelledby="content-blocks-title">
      <h2 id="content-blocks-title">Blocks</h2>
      {blocks.length === 0 ? <p className="dc-hint">No blocks yet: add the first below. The site shows them in this order.</p> : null}
      <FieldMessage message={listError} />
      {blocks.map((block, index) => {
        const heading = headings[index]!;
        const scope = `block-${block.id}`;
        const fields = contentFields(errors[block.id] ?? {}, scope);
        const whole = fields.message('');
        return (
          <section key={block.id} className="dc-block" aria-labelledby={`${scope}-title`}>
            <header className="dc-block__header">
              <h3 id={`${scope}-title`}>{heading}</h3>
              {disabled ? null : (
                <span className="dc-block__actions">
                  <Button
                    variant="secondary"
                    aria-label={`Move ${heading} up`}
                    disabled={index === 0}
                    onClick={() => dispatch({ type: 'move', id: block.id, by: -1 })}
                  >
                    Up
                  </Button>
                  <Button
                    variant="secondary"
                    aria-label={`Move ${heading} down`}
                    disabled={index === blocks.length - 1}
                    onClick={() => dispatch({ type: 'move', id: block.id, by: 1 })}
                  >
                    Down
                  </Button>
                  <Button variant="link" aria-label={`Remove ${heading}`} onClick={() => dispatch({ type: 'remove', id: block.id })}>
                    Remove
                  </Button>
                </span>
              )}
            </header>
            <FieldMessage message={whole} />
            <BlockFields
              block={block}
              change={(patch) => dispatch({ type: 'change', id: block.id, patch })}
              ctx={{ scope, fields, disabled }}
              upload={upload}
              locations={locations}
            />
          </section>
        );
      })}
      {disabled ? null : (
        <div className="dc-blocks__add">
          <div className="dp-field">
            <label htmlFor="content-block-type">Block type</label>
            <select id="content-block-type" value={adding} onChange={(event) => setAdding(event.target.value as ContentBlockType)}>
              {blockTypes.map((type) => (
                <option key={type} value={type}>
                  {blockWords[type]}
                </option>
              ))}
            </select>
          </div>
          <Button
            variant="secondary"
            onClick={() =>
              dispatch({
                type: 'add',
                blockType: adding,
                id: newBlockId(
                  adding,
                  blocks.map((block) => block.id),
                ),
              })
            }
          >
            Add block
          </Button>
        </div>
      )}
    </section>
  );
}
