import type { ContentBlock } from '@dealer/contracts/content';
import { RichHtml } from './rich-html';

/** Questions and answers: each answer opens under its question, with no script needed (`<details>`). */
export function FaqBlock({ block }: { block: Extract<ContentBlock, { type: 'faq' }> }) {
  return (
    <div className="content-faq">
      {block.items.map((item, index) => (
        <details key={index}>
          <summary>{item.question}</summary>
          <RichHtml html={item.answer_html} />
        </details>
      ))}
    </div>
  );
}
