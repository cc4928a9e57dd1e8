// Each block type's fields. Paths are the block's own (`headline`, `cta.to`, `people.0.name`): the
// server's `content.blocks.N.…` messages are placed on the block by its id (content-model placeErrors).
import type { ReactNode } from 'react';
import { contentLeadForms, type ContentBlock, type ContentBlockType, type StaffMember } from '@dealer/contracts/content';
import { Button } from '@dealer/ui/button';
import { leadFormWords } from './content-model';
import {
  CheckField,
  FieldMessage,
  IdsField,
  ImageField,
  LocationField,
  NumberField,
  RichTextField,
  SelectField,
  TextField,
  type FieldContext,
  type SiteLocation,
  type Upload,
} from './content-fields';

const leadFormOptions = contentLeadForms.map((form) => ({ value: form, label: leadFormWords[form] }));

type Of<T extends ContentBlockType> = Extract<ContentBlock, { type: T }>;
export type BlockFieldsProps<B extends ContentBlock = ContentBlock> = {
  block: B;
  change: (patch: Partial<B>) => void;
  ctx: FieldContext;
  upload: Upload;
  locations: SiteLocation[] | null;
};

/**
 * A block's list of items (people, questions): a message for the whole list (none, or too many) above
 * it, each item in its numbered group with a button that removes it, and a button that adds a blank one.
 */
function ItemList<T>({
  ctx,
  path,
  items,
  noun,
  adding,
  blank,
  keyOf = (index) => index,
  onChange,
  children,
}: {
  ctx: FieldContext;
  path: string;
  items: T[];
  /** "Person", "Question": the item's legend and its remove button say it with its number. */
  noun: string;
  /** The add button's words ("Add a person"). */
  adding: string;
  blank: T;
  keyOf?: (index: number) => string | number;
  onChange: (items: T[]) => void;
  /** The item's fields; `set` changes this item only. */
  children: (item: T, index: number, set: (patch: Partial<T>) => void) => ReactNode;
}) {
  const set = (index: number) => (patch: Partial<T>) => onChange(items.map((item, i) => (i === index ? { ...item, ...patch } : item)));
  return (
    <>
      <FieldMessage message={ctx.fields.message(path)} />
      {items.map((item, index) => (
        <fieldset key={keyOf(index)} className="dc-block__item">
          <legend>
            {noun} {index + 1}
          </legend>
          {children(item, index, set(index))}
          {ctx.disabled ? null : (
            <Button variant="link" onClick={() => onChange(items.filter((_, i) => i !== index))}>
              Remove {noun.toLowerCase()} {index + 1}
            </Button>
          )}
        </fieldset>
      ))}
      {ctx.disabled ? null : (
        <Button variant="secondary" onClick={() => onChange([...items, blank])}>
          {adding}
        </Button>
      )}
    </>
  );
}

/** A button (label and where it goes); `optional`: empty label and link mean no button. */
function LinkFields({
  ctx,
  path,
  value,
  onChange,
}: {
  ctx: FieldContext;
  path: string;
  value: { label: string; to: string } | undefined;
  onChange: (value: { label: string; to: string }) => void;
}) {
  const link = value ?? { label: '', to: '' };
  return (
    <div className="dc-block__row">
      <TextField
        ctx={ctx}
        path={`${path}.label`}
        label="Button label"
        value={link.label}
        max={60}
        onChange={(label) => onChange({ ...link, label })}
      />
      <TextField
        ctx={ctx}
        path={`${path}.to`}
        label="Button link"
        hint="A page of the site (/contact) or a web address (https://…)."
        value={link.to}
        onChange={(to) => onChange({ ...link, to })}
      />
    </div>
  );
}

function StaffFields({ block, change, ctx, upload, locations }: BlockFieldsProps<Of<'staff_list'>>) {
  return (
    <>
      <CheckField
        ctx={ctx}
        path="group_by_location"
        label="Group the people by location"
        checked={block.group_by_location}
        onChange={(group_by_location) => change({ group_by_location })}
      />
      <ItemList<StaffMember>
        ctx={ctx}
        path="people"
        items={block.people}
        noun="Person"
        adding="Add a person"
        blank={{ name: '', role: '' }}
        onChange={(people) => change({ people })}
      >
        {(person, index, set) => (
          <>
            <TextField ctx={ctx} path={`people.${index}.name`} label="Name" value={person.name} onChange={(name) => set({ name })} />
            <TextField ctx={ctx} path={`people.${index}.role`} label="Role" value={person.role} onChange={(role) => set({ role })} />
            <LocationField
              ctx={ctx}
              path={`people.${index}.location_id`}
              label="Location"
              none="No location"
              locations={locations}
              value={person.location_id}
              onChange={(location_id) => set({ location_id })}
            />
            <ImageField
              ctx={ctx}
              path={`people.${index}.photo`}
              label="Photo"
              optional
              upload={upload}
              value={person.photo}
              onChange={(photo) => set({ photo })}
            />
            <TextField
              ctx={ctx}
              path={`people.${index}.phone`}
              label="Phone"
              type="tel"
              value={person.phone ?? ''}
              onChange={(phone) => set({ phone: phone || undefined })}
            />
            <TextField
              ctx={ctx}
              path={`people.${index}.email`}
              label="E-mail"
              type="email"
              value={person.email ?? ''}
              onChange={(email) => set({ email: email.trim() ? email : undefined })}
            />
          </>
        )}
      </ItemList>
    </>
  );
}

function FaqFields({ block, change, ctx }: BlockFieldsProps<Of<'faq'>>) {
  return (
    <ItemList<Of<'faq'>['items'][number]>
      ctx={ctx}
      path="items"
      items={block.items}
      noun="Question"
      adding="Add a question"
      blank={{ question: '', answer_html: '' }}
      // The answer's editor reads its html once: when a question is added or removed, every answer's
      // editor starts again from the list as it is now, so none shows a removed question's answer.
      keyOf={(index) => `${index}-of-${block.items.length}`}
      onChange={(items) => change({ items })}
    >
      {(item, index, set) => (
        <>
          <TextField
            ctx={ctx}
            path={`items.${index}.question`}
            label="Question"
            value={item.question}
            onChange={(question) => set({ question })}
          />
          <RichTextField
            ctx={ctx}
            path={`items.${index}.answer_html`}
            label="Answer"
            html={item.answer_html}
            onChange={(answer_html) => set({ answer_html })}
          />
        </>
      )}
    </ItemList>
  );
}

function LocationsFields({ block, change, ctx, locations }: BlockFieldsProps<Of<'locations'>>) {
  const chosen = block.location_ids ?? [];
  return (
    <>
      {locations ? (
        <fieldset className="dc-block__item">
          <legend>Which locations (none ticked: all of them)</legend>
          {locations.map((location) => (
            <label key={location.id} className="dc-check">
              <input
                type="checkbox"
                checked={chosen.includes(location.id)}
                disabled={ctx.disabled}
                onChange={(event) => {
                  const next = event.target.checked ? [...chosen, location.id] : chosen.filter((id) => id !== location.id);
                  change({ location_ids: next.length ? next : undefined });
                }}
              />{' '}
              {location.name}
            </label>
          ))}
          <FieldMessage message={ctx.fields.within('location_ids')} />
        </fieldset>
      ) : (
        <IdsField
          ctx={ctx}
          path="location_ids"
          label="Locations (numbers, separated by commas)"
          hint="Empty: all of the site’s locations."
          value={block.location_ids}
          onChange={(location_ids) => change({ location_ids })}
        />
      )}
      <CheckField
        ctx={ctx}
        path="show_hours"
        label="Show opening hours"
        checked={block.show_hours}
        onChange={(show_hours) => change({ show_hours })}
      />
    </>
  );
}

/** The fields of one block, by its type. */
export function BlockFields(props: BlockFieldsProps) {
  const { block, ctx, upload } = props;
  // Each case narrows the block; `change` takes that block's own fields.
  const change = props.change as (patch: object) => void;
  switch (block.type) {
    case 'rich_text':
      return <RichTextField ctx={ctx} path="html" label="Text" html={block.html} onChange={(html) => change({ html })} />;
    case 'image':
      return (
        <>
          <ImageField
            ctx={ctx}
            path="image"
            label="Picture"
            optional={false}
            upload={upload}
            value={block.image}
            onChange={(image) => change({ image })}
          />
          <TextField
            ctx={ctx}
            path="caption"
            label="Caption (optional)"
            value={block.caption ?? ''}
            onChange={(caption) => change({ caption })}
          />
        </>
      );
    case 'hero':
      return (
        <>
          <ImageField
            ctx={ctx}
            path="image"
            label="Picture (optional)"
            optional
            upload={upload}
            value={block.image}
            onChange={(image) => change({ image })}
          />
          <TextField
            ctx={ctx}
            path="headline"
            label="Headline"
            max={120}
            value={block.headline}
            onChange={(headline) => change({ headline })}
          />
          <TextField
            ctx={ctx}
            path="text"
            label="Text (optional)"
            multiline
            max={300}
            value={block.text ?? ''}
            onChange={(text) => change({ text })}
          />
          <LinkFields ctx={ctx} path="cta" value={block.cta} onChange={(cta) => change({ cta })} />
        </>
      );
    case 'cta':
      return (
        <>
          <TextField
            ctx={ctx}
            path="headline"
            label="Headline (optional)"
            value={block.headline ?? ''}
            onChange={(headline) => change({ headline: headline || undefined })}
          />
          <TextField
            ctx={ctx}
            path="text"
            label="Text (optional)"
            multiline
            max={300}
            value={block.text ?? ''}
            onChange={(text) => change({ text })}
          />
          <LinkFields ctx={ctx} path="button" value={block.button} onChange={(button) => change({ button })} />
        </>
      );
    case 'lead_form':
      return (
        <>
          <SelectField
            ctx={ctx}
            path="form"
            label="Form"
            value={block.form}
            options={leadFormOptions}
            onChange={(form) => change({ form })}
          />
          <TextField
            ctx={ctx}
            path="title"
            label="Title above the form (optional)"
            value={block.title ?? ''}
            onChange={(title) => change({ title })}
          />
        </>
      );
    case 'offers_list':
      return (
        <>
          <NumberField
            ctx={ctx}
            path="limit"
            label="How many offers"
            min={1}
            max={24}
            value={block.limit}
            onChange={(limit) => change({ limit })}
          />
          <IdsField
            ctx={ctx}
            path="offer_ids"
            label="Which offers (numbers, separated by commas)"
            hint="Empty: the newest offers."
            value={block.offer_ids}
            onChange={(offer_ids) => change({ offer_ids })}
          />
        </>
      );
    case 'staff_list':
      return <StaffFields {...(props as BlockFieldsProps<Of<'staff_list'>>)} />;
    case 'faq':
      return <FaqFields {...(props as BlockFieldsProps<Of<'faq'>>)} />;
    case 'locations':
      return <LocationsFields {...(props as BlockFieldsProps<Of<'locations'>>)} />;
    case 'jobs_list':
      return <p className="dc-hint">Lists the site’s open jobs, newest first.</p>;
    case 'posts_list':
      return (
        <NumberField
          ctx={ctx}
          path="limit"
          label="How many posts"
          min={1}
          max={12}
          value={block.limit}
          onChange={(limit) => change({ limit })}
        />
      );
    case 'featured_stock':
      return (
        <>
          <TextField ctx={ctx} path="title" label="Title (optional)" value={block.title ?? ''} onChange={(title) => change({ title })} />
          <NumberField
            ctx={ctx}
            path="limit"
            label="How many cars"
            min={4}
            max={12}
            value={block.limit}
            onChange={(limit) => change({ limit })}
          />
          <IdsField
            ctx={ctx}
            path="car_ids"
            label="Which cars (numbers, separated by commas)"
            hint="Empty: the newest cars. Shown while the site’s “Stock on the home page” switch is on."
            value={block.car_ids}
            onChange={(car_ids) => change({ car_ids })}
          />
        </>
      );
    case 'reviews':
      return (
        <TextField ctx={ctx} path="title" label="Title (optional)" value={block.title ?? ''} onChange={(title) => change({ title })} />
      );
  }
}
