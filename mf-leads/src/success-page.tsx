import { Link } from 'react-router-dom';
import type { SuccessPageProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor } from '@dealer/rules/routes';
import { t } from '@dealer/rules/locale';
import { usePageTitle } from '@dealer/ui/page-title';

const readable = (category: string) => category.replace(/-/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** /success?category=… (extra query pairs are allowed and ignored). */
export default function SuccessPage({ category }: SuccessPageProps) {
  const site = useAppSelector(selectSite);
  usePageTitle('Thank you', site.name);
  return (
    <div className="dp-container success-page" data-category={category ?? ''} data-remote-version={__REMOTE_VERSION__}>
      <h1>Thank you</h1>
      <p>
        {t(
          site.locale,
          `We have received your ${category ? readable(category).toLowerCase() : 'enquiry'}. Our team will be in touch shortly.`,
        )}
      </p>
      <p>
        <Link to={searchPathFor(site)}>Keep browsing our stock</Link>
      </p>
    </div>
  );
}
