import { useEffect, useState, type FormEvent } from 'react';
import type { ContentKind } from '@dealer/contracts/content';
import { Button } from '@dealer/ui/button';
import { consoleCall, consoleUpload, type ConsoleSite } from './console-api';
import { BlocksEditor } from './content-blocks';
import { PictureField, TextField, type FieldContext, type SiteLocation } from './content-fields';
import { KindFields } from './content-kind-fields';
import {
  blocksReducer,
  contentFields,
  emptyForm,
  formOf,
  kindWords,
  noErrors,
  pathOf,
  presetSlug,
  slugOf,
  stateOf,
  stateWords,
  versionOf,
  type BlockAction,
  type ContentForm,
  type ContentRecord,
} from './content-model';
import { refusalOf, sendDraft, sendPublish, useActions, type Refusal } from './content-save';

type Props = {
  site: ConsoleSite;
  kind: ContentKind;
  /** The item to edit; null: a new one, created by its first save. */
  id: number | null;
  locations: SiteLocation[] | null;
  section: 'blog' | 'news';
  /** Back to the list, with what to say there. */
  onClose: (said?: string) => void;
};

type Busy = 'save' | 'preview' | 'publish' | 'unpublish' | 'delete';

/**
 * One page, post, offer, job or search page: its address and fields, its blocks, and the buttons that
 * save it as a draft, preview it on the site, publish it, take it off the site or delete it. A refusal
 * puts each message beside its field (a block's on that block) and keeps everything the dealer typed.
 */
export function ContentEditor({ site, kind, id, locations, section, onClose }: Props) {
  const siteBase = `/api/console/sites/${encodeURIComponent(site.slug)}`;
  const base = `${siteBase}/content`;
  const canWrite = site.actions.includes('content.write');
  const words = kindWords[kind];
  const [record, setRecord] = useState<ContentRecord | null>(null);
  const [form, setForm] = useState<ContentForm | null>(id === null ? emptyForm() : null);
  const [slug, setSlug] = useState('');
  const [slugTouched, setSlugTouched] = useState(id !== null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const { busy, said, setSaid, act } = useActions<Busy>();
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    if (id === null) return;
    let current = true;
    consoleCall<ContentRecord>('GET', `${base}/${id}`).then(
      (loaded) => {
        if (!current) return;
        setRecord(loaded);
        setForm(formOf(loaded.draft ?? loaded.published));
        setSlug(loaded.slug);
      },
      (caught: unknown) =>
        current && setRefusal({ message: caught instanceof Error ? caught.message : 'This could not be loaded.', placed: noErrors }),
    );
    return () => {
      current = false;
    };
  }, [base, id]);

  if (!form)
    return refusal ? (
      <div className="dp-alert dp-alert--destructive" role="alert">
        {refusal.message}
      </div>
    ) : (
      <p role="status">Loading the {words.one}…</p>
    );

  const placed = refusal?.placed ?? noErrors;
  const ctx: FieldContext = { scope: 'content', fields: contentFields(placed.form, 'content'), disabled: !canWrite };
  const set = (patch: Partial<ContentForm>) => setForm((was) => (was ? { ...was, ...patch } : was));
  // A new search page's address follows its preset (used-toyota-hilux) until the dealer writes one.
  const setKindFields = (patch: Partial<ContentForm>) => {
    set(patch);
    if (patch.preset && !slugTouched) setSlug(presetSlug(patch.preset));
  };
  const setSeo = (patch: Partial<ContentForm['seo']>) => setForm((was) => (was ? { ...was, seo: { ...was.seo, ...patch } } : was));
  const dispatch = (action: BlockAction) => setForm((was) => (was ? { ...was, blocks: blocksReducer(was.blocks, action) } : was));
  const upload = (file: File) => consoleUpload<{ src: string }>(`${siteBase}/content-images`, file).then((answer) => answer.src);
  const refused = (caught: unknown, fallback: string, sentBlockIds?: string[]) => setRefusal(refusalOf(caught, fallback, sentBlockIds));

  /** Saves the form as the draft (creating the item the first time); the saved item, or null when refused. */
  const save = async (): Promise<ContentRecord | null> => {
    const sentBlockIds = form.blocks.map((block) => block.id);
    try {
      const saved = await sendDraft(base, record, kind, slug, versionOf(kind, form));
      setRecord(saved);
      setRefusal(null);
      return saved;
    } catch (caught) {
      refused(caught, 'The draft could not be saved. Try again.', sentBlockIds);
      return null;
    }
  };

  const saveDraft = (event?: FormEvent) => {
    event?.preventDefault();
    void act('save', async () => {
      if (await save()) setSaid('Draft saved.');
    });
  };
  const publish = () =>
    act('publish', async () => {
      const saved = await save();
      if (!saved) return;
      try {
        setRecord(await sendPublish(base, saved));
        setSaid('Published: the site shows it now.');
      } catch (caught) {
        refused(caught, 'It could not be published. Try again.');
      }
    });
  const unpublish = () =>
    act('unpublish', async () => {
      if (!record) return;
      try {
        setRecord(await consoleCall<ContentRecord>('POST', `${base}/${record.id}/unpublish`));
        setRefusal(null);
        setSaid('Taken off the site: it is kept as a draft.');
      } catch (caught) {
        refused(caught, 'It could not be taken off the site. Try again.');
      }
    });
  const remove = () => {
    if (!record || !window.confirm(`Delete this ${words.one}? It leaves the site and cannot be brought back.`)) return;
    void act('delete', async () => {
      try {
        await consoleCall('DELETE', `${base}/${record.id}`);
        onClose(`Deleted “${form.title || record.slug}”.`);
      } catch (caught) {
        refused(caught, 'It could not be deleted. Try again.');
      }
    });
  };
  const preview = () => {
    // Opened now, while the click still counts as the dealer's: a tab opened after the save would be blocked as a pop-up.
    const tab = window.open('about:blank', '_blank');
    void act('preview', async () => {
      const saved = canWrite ? await save() : record;
      if (!saved) return void tab?.close();
      try {
        const link = await consoleCall<{ url: string; expires_in_minutes: number }>('POST', `${base}/preview-link`, { path: saved.path });
        if (tab) {
          tab.opener = null;
          tab.location.href = link.url;
        } else window.open(link.url, '_blank', 'noopener');
        setPreviewUrl(link.url);
        setSaid(
          `${canWrite ? 'Draft saved. ' : ''}The preview is open in a new tab; its link works for ${link.expires_in_minutes} minutes.`,
        );
      } catch (caught) {
        tab?.close();
        refused(caught, 'The preview could not be opened. Try again.');
      }
    });
  };

  const isHome = kind === 'page' && record?.slug === 'home';
  const addressHint = isHome
    ? 'The home page is always at /.'
    : kind === 'job'
      ? 'Jobs are listed at /careers; the address names this one among them.'
      : `Shown at ${pathOf(kind, slug.trim() || 'your-address', section)}`;
  const hasBlocks = kind === 'page' || kind === 'post' || kind === 'offer';
  const hasSeo = hasBlocks || kind === 'landing';

  return (
    <form className="dc-settings dc-content-editor" onSubmit={saveDraft} noValidate aria-labelledby="content-editor-title">
      <p>
        <Button variant="link" onClick={() => onClose()}>
          Back to {words.tab.toLowerCase()}
        </Button>
      </p>
      <h1 id="content-editor-title">{record ? `Edit ${words.one}: ${form.title.trim() || record.slug}` : words.add}</h1>
      {record ? (
        <p className="dc-content-editor__state">
          {stateWords[stateOf(record)]} · {record.path}
        </p>
      ) : null}
      {refusal ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {refusal.message}
        </div>
      ) : null}
      {!canWrite ? <p>Your role can read the site’s content; a site admin changes it.</p> : null}

      <fieldset disabled={!canWrite}>
        <legend>The {words.one}</legend>
        <TextField
          ctx={ctx}
          path="slug"
          label="Address"
          hint={addressHint}
          value={slug}
          readOnly={isHome}
          onChange={(next) => {
            setSlugTouched(true);
            setSlug(next);
          }}
        />
        {kind === 'landing' ? null : (
          <TextField
            ctx={ctx}
            path="title"
            label="Title"
            max={120}
            value={form.title}
            onChange={(title) => {
              set({ title });
              if (!slugTouched) setSlug(slugOf(title));
            }}
          />
        )}
        <KindFields kind={kind} ctx={ctx} form={form} set={setKindFields} upload={upload} locations={locations} />
      </fieldset>

      {hasSeo ? (
        <fieldset disabled={!canWrite}>
          <legend>Search engines and sharing</legend>
          <TextField
            ctx={ctx}
            path="seo.title"
            label="SEO title"
            hint={`What search results show as the title; empty: the title${kind === 'landing' ? ' (the template’s when it has none)' : ''}.`}
            max={70}
            value={form.seo.title ?? ''}
            onChange={(title) => setSeo({ title })}
          />
          <TextField
            ctx={ctx}
            path="seo.description"
            label="SEO description"
            hint={`The words under the title in search results${kind === 'landing' ? '; empty: the template’s description' : ''}.`}
            multiline
            max={160}
            value={form.seo.description ?? ''}
            onChange={(description) => setSeo({ description })}
          />
          {hasBlocks ? (
            <PictureField
              ctx={ctx}
              path="seo.share_image"
              label="Share image"
              optional
              upload={upload}
              src={form.seo.share_image}
              onChange={(share_image) => setSeo({ share_image })}
            />
          ) : null}
        </fieldset>
      ) : null}

      {hasBlocks ? (
        <BlocksEditor
          blocks={form.blocks}
          dispatch={dispatch}
          errors={placed.blocks}
          listError={placed.form.blocks ?? null}
          disabled={!canWrite}
          upload={upload}
          locations={locations}
        />
      ) : null}

      <p role="status" className="dc-content-editor__said">
        {said}
        {previewUrl && said.includes('preview') ? (
          <>
            {' '}
            <a href={previewUrl} target="_blank" rel="noopener noreferrer">
              Open the preview again
            </a>
          </>
        ) : null}
      </p>
      <div className="dc-content-editor__actions">
        {canWrite ? (
          <Button type="submit" loading={busy === 'save'} loadingText="Saving" disabled={busy !== null}>
            Save draft
          </Button>
        ) : null}
        {canWrite || record ? (
          <Button
            variant="secondary"
            loading={busy === 'preview'}
            loadingText="Opening the preview"
            disabled={busy !== null}
            onClick={preview}
          >
            Preview
          </Button>
        ) : null}
        {canWrite ? (
          <Button loading={busy === 'publish'} loadingText="Publishing" disabled={busy !== null} onClick={() => void publish()}>
            Publish
          </Button>
        ) : null}
        {canWrite && record && record.published !== null ? (
          <Button
            variant="secondary"
            loading={busy === 'unpublish'}
            loadingText="Unpublishing"
            disabled={busy !== null}
            onClick={() => void unpublish()}
          >
            Unpublish
          </Button>
        ) : null}
        {canWrite && record ? (
          <Button variant="link" disabled={busy !== null} onClick={remove}>
            Delete
          </Button>
        ) : null}
      </div>
    </form>
  );
}
