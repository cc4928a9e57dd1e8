import { Spinner } from '@dealer/ui/spinner';

/** A light loading state while a page's code or its content is on its way. */
export function PageLoading() {
  return (
    <div className="dp-container content-page content-page--loading" aria-busy="true">
      <Spinner />
    </div>
  );
}
