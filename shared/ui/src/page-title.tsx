import { useEffect } from 'react';

/** Keeps document.title in step with client-side navigation; the server writes the first one. */
export function usePageTitle(title: string, siteName: string) {
  useEffect(() => {
    document.title = title ? `${title} | ${siteName}` : siteName;
  }, [title, siteName]);
}
