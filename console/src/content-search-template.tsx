import { Fragment, useEffect, useState, type FormEvent } from 'react';
import { Button } from '@dealer/ui/button';
import { consoleCall, type ConsoleSite } from './console-api';
import { TextField, type FieldContext } from './content-fields';
import {
  contentFields,
  defaultSearchTemplate,
  formOf,
  noErrors,
  stateOf,
  stateWords,
  templatePlaceholders,
  versionOf,
  type ContentForm,
  type ContentListing,
  type ContentRecord,
} from './content-model';
import { refusalOf, sendDraft, sendPublish, useActions, type Refusal } from './content-save';

/** The site's one template is stored as this kind, at this slug, made by its first save. */
const kind = 'search_template';
const slug = 'default';

/**
 * The site's search page template, under its search pages: the title, intro and description every
 * search page takes where it has none of its own, with placeholders filled from the page's preset.
 * Starts from the platform's default while the site has none; Save draft keeps it from the site,
 * Publish puts it there.
 */
export function SearchTemplateEditor({ site }: { site: ConsoleSite }) {
  const base = `/api/console/sites/${encodeURIComponent(site.slug)}/content`;
  const canWrite = site.actions.includes('content.write');
  const [record, setRecord] = useState<ContentRecord | null>(null);
  const [form, setForm] = useState<ContentForm | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const { busy, said, setSaid, act } = useActions<'save' | 'publish'>();

  useEffect(() => {
    let current = true;
    const load = async () => {
      const { items } = await consoleCall<{ items: ContentListing[] }>('GET', `${base}?kind=${kind}`);
      const stored = items.find((item) => item.slug === slug);
      if (!stored) return current && setForm(formOf(defaultSearchTemplate));
      const loaded = await consoleCall<ContentRecord>('GET', `${base}/${stored.id}`);
      if (!current) return;
      setRecord(loaded);
      setForm(formOf(loaded.draft ?? loaded.published));
    };
    load().catch(
      (caught: unknown) =>
        current &&
        setRefusal({ message: caught instanceof Error ? caught.message : 'The template could not be loaded.', placed: noErrors }),
    );
    return () => {
      current = false;
    };
  }, [base]);

  const heading = (
    <h2 id="dc-search-template-title" className="dc-search-template__title">
      Search page template
    </h2>
  );
  if (!form)
    return (
      <section aria-labelledby="dc-search-template-title" className="dc-search-template">
        {heading}
        {refusal ? (
          <div className="dp-alert dp-alert--destructive" role="alert">
            {refusal.message}
          </div>
        ) : (
          <p role="status">Loading the template…</p>
        )}
      </section>
    );

  const ctx: FieldContext = {
    scope: 'template',
    fields: contentFields((refusal?.placed ?? noErrors).form, 'template'),
    disabled: !canWrite,
  };
  const set = (patch: Partial<ContentForm>) => setForm((was) => (was ? { ...was, ...patch } : was));
  const refused = (caught: unknown, fallback: string) => setRefusal(refusalOf(caught, fallback));

  /** Saves the template as the draft (the site's first save creates it); the saved one, or null when refused. */
  const save = async (): Promise<ContentRecord | null> => {
    try {
      const saved = await sendDraft(base, record, kind, slug, versionOf(kind, form));
      setRecord(saved);
      setRefusal(null);
      return saved;
    } catch (caught) {
      refused(caught, 'The template could not be saved. Try again.');
      return null;
    }
  };
  const saveDraft = (event: FormEvent) => {
    event.preventDefault();
    void act('save', async () => {
      if (await save()) setSaid('Draft saved: the site keeps the published template until you publish.');
    });
  };
  const publish = () =>
    act('publish', async () => {
      const saved = await save();
      if (!saved) return;
      try {
        setRecord(await sendPublish(base, saved));
        setSaid('Published: the site’s search pages use it now.');
      } catch (caught) {
        refused(caught, 'The template could not be published. Try again.');
      }
    });

  return (
    <section aria-labelledby="dc-search-template-title" className="dc-search-template">
      {heading}
      <p className="dc-content-editor__state">
        {record ? stateWords[stateOf(record)] : 'Not saved yet: the site uses this default template.'}
      </p>
      <form className="dc-settings" onSubmit={saveDraft} noValidate aria-labelledby="dc-search-template-title">
        {refusal ? (
          <div className="dp-alert dp-alert--destructive" role="alert">
            {refusal.message}
          </div>
        ) : null}
        <fieldset disabled={!canWrite}>
          <legend>What a search page says when it has no words of its own</legend>
          <p className="dc-hint dc-search-template__placeholders">
            Placeholders:{' '}
            {templatePlaceholders.map((placeholder, index) => (
              <Fragment key={placeholder}>
                {index ? ' ' : ''}
                <code>{placeholder}</code>
              </Fragment>
            ))}
            . Each is filled from the page’s preset or the site’s details; one the page leaves empty is dropped.
          </p>
          <TextField ctx={ctx} path="title" label="Title template" max={120} value={form.title} onChange={(title) => set({ title })} />
          <TextField
            ctx={ctx}
            path="intro_html"
            label="Intro template"
            hint="Formatted text as HTML, such as <p>…</p>."
            multiline
            value={form.intro_html}
            onChange={(intro_html) => set({ intro_html })}
          />
          <TextField
            ctx={ctx}
            path="description"
            label="Description template"
            hint="The words under the title in search results (cut at 160 characters once filled)."
            multiline
            max={300}
            value={form.description}
            onChange={(description) => set({ description })}
          />
        </fieldset>
        <p role="status">{said}</p>
        {canWrite ? (
          <div className="dc-search-template__actions">
            <Button type="submit" loading={busy === 'save'} loadingText="Saving" disabled={busy !== null}>
              Save draft
            </Button>
            <Button loading={busy === 'publish'} loadingText="Publishing" disabled={busy !== null} onClick={() => void publish()}>
              Publish
            </Button>
          </div>
        ) : null}
      </form>
    </section>
  );
}
