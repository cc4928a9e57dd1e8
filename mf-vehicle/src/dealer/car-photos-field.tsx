import { useState } from 'react';
import { Button } from '@dealer/ui/button';
import { StockApiError, thumbnail } from './stock-api';

const maxBytes = 15 * 1024 * 1024;
const types = ['image/jpeg', 'image/png', 'image/webp'];

type Props = {
  photos: string[];
  disabled: boolean;
  error: string | null;
  onReorder: (photos: string[]) => void;
  onUpload: (files: File[]) => Promise<void>;
};

/**
 * A car's photos in the order the site shows them (the first is the main one): each moved or
 * removed, and new ones added (JPEG, PNG or WebP, at most 15 MB each; checked here and by the server).
 */
export function CarPhotosField({ photos, disabled, error, onReorder, onUpload }: Props) {
  const [problem, setProblem] = useState('');
  const [uploading, setUploading] = useState(false);
  const move = (from: number, to: number) => {
    const next = [...photos];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onReorder(next);
  };
  const shown = problem || error;

  return (
    <fieldset className="dc-car__photos" disabled={disabled}>
      <legend>Photos</legend>
      <ol className="dc-car__photo-list">
        {photos.map((photo, index) => (
          <li key={photo}>
            <img src={thumbnail(photo)} alt={`Photo ${index + 1}${index === 0 ? ' (the main one)' : ''}`} width={160} height={120} />
            <div>
              <Button
                variant="link"
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
                aria-label={`Move photo ${index + 1} earlier`}
              >
                Earlier
              </Button>
              <Button
                variant="link"
                disabled={index === photos.length - 1}
                onClick={() => move(index, index + 1)}
                aria-label={`Move photo ${index + 1} later`}
              >
                Later
              </Button>
              <Button
                variant="link"
                onClick={() => onReorder(photos.filter((_, i) => i !== index))}
                aria-label={`Remove photo ${index + 1}`}
              >
                Remove
              </Button>
            </div>
          </li>
        ))}
      </ol>
      <div className="dp-field">
        <label htmlFor="car-photo-upload">Add photos (JPEG, PNG or WebP, at most 15 MB each)</label>
        <input
          id="car-photo-upload"
          type="file"
          multiple
          accept={types.join(',')}
          {...(shown ? { 'aria-invalid': true, 'aria-describedby': 'car-photos-error' } : {})}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            const wrong = files.find((file) => !types.includes(file.type) || file.size > maxBytes);
            if (wrong) {
              setProblem(wrong.size > maxBytes ? `${wrong.name} is larger than 15 MB.` : `${wrong.name} is not a JPEG, PNG or WebP photo.`);
              return;
            }
            setProblem('');
            setUploading(true);
            onUpload(files)
              .catch((caught: unknown) =>
                setProblem(caught instanceof StockApiError ? (caught.fields.photos ?? caught.message) : 'The photo could not be added.'),
              )
              .finally(() => setUploading(false));
          }}
        />
        {uploading ? <p role="status">Adding the photos…</p> : null}
        {shown ? (
          <p className="dp-field__error" id="car-photos-error">
            {shown}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
