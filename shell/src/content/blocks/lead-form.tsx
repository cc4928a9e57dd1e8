import type { ContentBlock } from '@dealer/contracts/content';
import { RemoteSlot } from '@dealer/ui/remote-slot';
import { isModuleEnabled } from '../../federation/remote-runtime';
import { careersFormAnchor } from './jobs-list';

/** Whether the site can show a lead form block (it has mf-leads, whose form it is). */
export const leadFormsShown = () => isModuleEnabled('mf-leads/LeadFormPage');

/**
 * One of the site's enquiry forms, mf-leads' own, placed like any slot: its code (and the federation
 * runtime) loads only on a page that has this block. A site without mf-leads shows nothing here; the
 * rest of the page is unchanged.
 */
export function LeadFormBlock({ block }: { block: Extract<ContentBlock, { type: 'lead_form' }> }) {
  if (!leadFormsShown()) return null;
  return (
    <div className="content-lead-form" id={block.form === 'careers' ? careersFormAnchor : `${block.form}-form`}>
      {block.title && <h2>{block.title}</h2>}
      <RemoteSlot module="mf-leads/LeadFormPage" form={block.form} embedded={block.title ? 'no-heading' : 'heading'} />
    </div>
  );
}
