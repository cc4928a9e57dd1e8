// The site's own content (issue 24 part 3): a console screen, as no domain's remote owns it (0017).
// Loaded lazily by console-app: it brings the content contract (zod) and, with its first text field,
// the Lexical editor, neither of which the console's first load needs.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@dealer/ui/button';
import { consoleCall, type ConsoleSite } from './console-api';
import { ContentEditor } from './content-editor';
import type { SiteLocation } from './content-fields';
import { contentTabs, kindWords, pathOf, stateWords, type ContentListing, type ContentTab } from './content-model';
import { SearchTemplateEditor } from './content-search-template';

const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });
const day = (ms: number | null) => (ms ? new Date(ms).toLocaleDateString('en-AU', { dateStyle: 'medium' }) : '–');

/** What the editor needs of the site's settings: its locations' names and whether posts are at /news. */
type SiteFacts = { locations: SiteLocation[] | null; section: 'blog' | 'news' };
type SettingsAnswer = { locations?: SiteLocation[]; features?: { blog_to_news?: boolean } };

/**
 * The site's pages, news posts, special offers, jobs and search pages: a tab for each, listing each
 * one's title, address, state and when it last changed, and the editor of one of them or of a new one.
 * The search pages' tab also holds the site's search page template.
 */
export function ContentScreen({ site }: { site: ConsoleSite }) {
  const base = `/api/console/sites/${encodeURIComponent(site.slug)}`;
  const canWrite = site.actions.includes('content.write');
  const [kind, setKind] = useState<ContentTab>('page');
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  /** The list last loaded, and of which kind (another tab's list is not shown while this one loads). */
  const [loaded, setLoaded] = useState<{ kind: ContentTab; items?: ContentListing[]; error?: string } | null>(null);
  const [said, setSaid] = useState('');
  const [facts, setFacts] = useState<SiteFacts>({ locations: null, section: 'blog' });
  const tabs = useRef<Partial<Record<ContentTab, HTMLButtonElement | null>>>({});

  useEffect(() => {
    // The locations' names make the location fields lists; a role without the settings types numbers instead.
    if (!site.actions.includes('settings.read')) return;
    let current = true;
    consoleCall<SettingsAnswer>('GET', `${base}/settings`).then(
      (settings) =>
        current &&
        setFacts({
          locations: settings.locations?.map(({ id, name }) => ({ id, name })) ?? null,
          section: settings.features?.blog_to_news ? 'news' : 'blog',
        }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [base, site.actions]);

  useEffect(() => {
    if (editing) return;
    let current = true;
    consoleCall<{ items: ContentListing[] }>('GET', `${base}/content?kind=${kind}`).then(
      (answer) => current && setLoaded({ kind, items: answer.items }),
      (caught: unknown) =>
        current && setLoaded({ kind, error: caught instanceof Error ? caught.message : 'The list could not be loaded.' }),
    );
    return () => {
      current = false;
    };
  }, [base, kind, editing]);

  if (editing)
    return (
      <ContentEditor
        key={`${kind}-${editing.id ?? 'new'}`}
        site={site}
        kind={kind}
        id={editing.id}
        locations={facts.locations}
        section={facts.section}
        onClose={(message) => {
          setSaid(message ?? '');
          setEditing(null);
        }}
      />
    );

  const words = kindWords[kind];
  const items = loaded?.kind === kind ? (loaded.items ?? null) : null;
  const error = loaded?.kind === kind ? (loaded.error ?? null) : null;
  // Arrow keys move between the tabs, as a tab list does.
  const onTabKey = (event: KeyboardEvent) => {
    const by = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!by) return;
    const next = contentTabs[(contentTabs.indexOf(kind) + by + contentTabs.length) % contentTabs.length]!;
    setKind(next);
    setSaid('');
    tabs.current[next]?.focus();
  };

  return (
    <section aria-labelledby="dc-content-title" className="dc-content">
      <h1 id="dc-content-title">Content of {site.name}</h1>
      <div className="dc-content__tabs" role="tablist" aria-label="Kinds of content" onKeyDown={onTabKey}>
        {contentTabs.map((one) => (
          <button
            key={one}
            ref={(element) => {
              tabs.current[one] = element;
            }}
            type="button"
            role="tab"
            id={`dc-content-tab-${one}`}
            aria-selected={one === kind}
            aria-controls="dc-content-panel"
            tabIndex={one === kind ? 0 : -1}
            onClick={() => {
              setKind(one);
              setSaid('');
            }}
          >
            {kindWords[one].tab}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="dc-content-panel" aria-labelledby={`dc-content-tab-${kind}`}>
        <p role="status">{said}</p>
        {canWrite ? <Button onClick={() => setEditing({ id: null })}>{words.add}</Button> : null}
        {error ? (
          <div className="dp-alert dp-alert--destructive" role="alert">
            {error}
          </div>
        ) : !items ? (
          <p role="status">Loading…</p>
        ) : items.length === 0 ? (
          <p>{words.none}</p>
        ) : (
          <table className="dc-content__table">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Address</th>
                <th scope="col">State</th>
                {kind === 'offer' || kind === 'job' ? <th scope="col">{kind === 'offer' ? 'Ends' : 'Closes'}</th> : null}
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <td>
                    <Button variant="link" onClick={() => setEditing({ id: item.id })}>
                      {item.title || (kind === 'landing' ? '(from the template)' : item.slug)}
                    </Button>
                  </td>
                  <td>{pathOf(item.kind, item.slug, facts.section)}</td>
                  <td>
                    <span className={`dc-content__state dc-content__state--${item.state}`}>{stateWords[item.state]}</span>
                  </td>
                  {kind === 'offer' || kind === 'job' ? <td>{day(item.expires_at)}</td> : null}
                  <td>{when(item.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {kind === 'landing' ? <SearchTemplateEditor site={site} /> : null}
      </div>
    </section>
  );
}
