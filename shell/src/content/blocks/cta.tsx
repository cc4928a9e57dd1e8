import type { ContentBlock } from '@dealer/contracts/content';
import { SiteLink } from './site-link';

/** A call to action: a line or two and a button. */
export function CtaBlock({ block }: { block: Extract<ContentBlock, { type: 'cta' }> }) {
  return (
    <div className="content-cta">
      {block.headline && <h2>{block.headline}</h2>}
      {block.text && <p>{block.text}</p>}
      <SiteLink to={block.button.to} className="dp-button dp-button--primary">
        {block.button.label}
      </SiteLink>
    </div>
  );
}
