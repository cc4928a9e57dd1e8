import type { PublicSiteConfig } from '@dealer/contracts/site';

/**
 * Said at the top of every page while this browser previews the site at remote versions chosen in
 * the dealer console (only it sees them), with the way back to what shoppers see.
 */
export function PreviewBanner({ site }: { site: PublicSiteConfig }) {
  if (!site.preview) return null;
  const versions = site.remotes.map((remote) => `${remote.name} ${remote.version}`).join(', ');
  if (site.preview_drafts)
    return (
      <div className="preview-banner" role="region" aria-label="Preview of unpublished changes">
        <p>
          Previewing unpublished changes: only this browser sees them. <a href="?dp_preview=off">End the preview</a>
        </p>
      </div>
    );
  return (
    <div className="preview-banner" role="region" aria-label="Preview of remote versions">
      <p>
        Preview: only this browser sees the site with {versions || 'its remotes off'}. <a href="?dp_preview=off">End the preview</a>
      </p>
    </div>
  );
}
