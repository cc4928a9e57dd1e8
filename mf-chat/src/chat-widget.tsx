import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { Button } from '@dealer/ui/button';
import './chat-widget.css';

/** SPEC §9: the welcome bubble appears 3 seconds after load. */
export const welcomeDelayMs = 3000;

/**
 * The chat launcher: a welcome bubble after 3 s unless the shopper closed it before
 * (remembered), and a 'Text us' button that opens the conversation panel.
 */
export default function ChatWidget() {
  const site = useAppSelector(selectSite);
  const closedKey = `dealer:${site.slug}:chat-welcome-closed`;
  const [bubble, setBubble] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (localStorage.getItem(closedKey)) return;
    const timer = setTimeout(() => setBubble(true), welcomeDelayMs);
    return () => clearTimeout(timer);
  }, [closedKey]);

  const closeBubble = () => {
    setBubble(false);
    localStorage.setItem(closedKey, '1');
  };

  return (
    <div className="chat-widget" data-remote-version={__REMOTE_VERSION__}>
      {bubble && !open && (
        <div className="chat-widget__bubble" role="status">
          <p>{`Hi! Questions about a car? ${site.name} can text you back.`}</p>
          <button type="button" className="chat-widget__close" aria-label="Close message" onClick={closeBubble}>
            ×
          </button>
        </div>
      )}
      {open && (
        <section className="chat-widget__panel" aria-label="Chat with us">
          <p>{`Send us a message and the ${site.name} team will reply by text.`}</p>
          <Link to="/contact" onClick={() => setOpen(false)}>
            Leave your details
          </Link>
          <a href={`sms:${site.phone.replace(/\s+/g, '')}`}>{`Text ${site.phone}`}</a>
        </section>
      )}
      <Button
        className="chat-widget__launcher"
        onClick={() => {
          closeBubble();
          setOpen(!open);
        }}
      >
        Text us
      </Button>
    </div>
  );
}
