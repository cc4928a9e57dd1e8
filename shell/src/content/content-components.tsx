import { createContext, lazy, Suspense, useContext, type ComponentType } from 'react';
import type { ContentPageProps } from '../pages/content-page';
import type { PageBlocksProps } from './page-blocks';
import { PageLoading } from './page-loading';

/**
 * The dealer's pages and blocks are their own chunk: a home page the dealer has written nothing for
 * loads none of it. The server render hands the components in (render-app.server.tsx), so its markup
 * holds them; the browser keeps that markup, inside the same Suspense boundary, until the chunk is
 * there and then hydrates it (as federation/server-rendered.tsx does for remotes).
 */
export type ContentComponents = {
  ContentPage: ComponentType<ContentPageProps>;
  PageBlocks: ComponentType<PageBlocksProps>;
};

export const ContentComponentsContext = createContext<ContentComponents | null>(null);

const LazyContentPage = lazy(() =>
  import(/* webpackChunkName: "content" */ '../pages/content-page').then((module) => ({ default: module.ContentPage })),
);
const LazyPageBlocks = lazy(() =>
  import(/* webpackChunkName: "content" */ './page-blocks').then((module) => ({ default: module.PageBlocks })),
);

/** A content, news, post or offer page. */
export function ContentPageView(props: ContentPageProps) {
  const Page = useContext(ContentComponentsContext)?.ContentPage ?? LazyContentPage;
  return (
    <Suspense fallback={<PageLoading />}>
      <Page {...props} />
    </Suspense>
  );
}

/** The blocks of a page (the home page's sections). */
export function PageBlocksView(props: PageBlocksProps) {
  const Blocks = useContext(ContentComponentsContext)?.PageBlocks ?? LazyPageBlocks;
  return (
    <Suspense fallback={null}>
      <Blocks {...props} />
    </Suspense>
  );
}
