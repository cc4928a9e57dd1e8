import { useEffect, useState } from 'react';
import { Button } from '@dealer/ui/button';

type Session = { id: string; user_agent: string; created_at: number; last_seen_at: number; current: boolean };
const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

/** Where the user is signed in: each session with its browser and last use; any but this one can be ended. */
export function SessionsScreen() {
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [said, setSaid] = useState('');
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    fetch('/api/console/me/sessions', { credentials: 'same-origin' })
      .then((res) => res.json() as Promise<{ sessions: Session[] }>)
      .then((found) => current && setSessions(found.sessions));
    return () => {
      current = false;
    };
  }, [version]);

  const end = async (session: Session) => {
    const res = await fetch(`/api/console/me/sessions/${session.id}`, { method: 'DELETE', credentials: 'same-origin' });
    setSaid(res.ok ? 'That session is ended: the browser must sign in again.' : 'That session could not be ended.');
    setVersion((n) => n + 1);
  };

  return (
    <section aria-labelledby="dc-sessions-title">
      <h1 id="dc-sessions-title">Where you are signed in</h1>
      <p role="status">{said}</p>
      {sessions === null ? <p>Loading…</p> : null}
      <ul className="dc-users">
        {(sessions ?? []).map((session) => (
          <li key={session.id}>
            <span>{session.user_agent || 'Unknown browser'}</span>
            <span>
              signed in {when(session.created_at)}, last used {when(session.last_seen_at)}
            </span>
            {session.current ? (
              <strong>This browser</strong>
            ) : (
              <Button variant="link" onClick={() => void end(session)}>
                End this session
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
